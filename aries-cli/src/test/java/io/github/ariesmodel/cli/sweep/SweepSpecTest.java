package io.github.ariesmodel.cli.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SweepSpecTest {

  private final SweepSpec spec = SweepSpec.parse("load=0.1,0.2,0.3;routing=minimal,ugal;seed=1..2");

  @Test
  void enumeratesWithTheFirstParameterOutermost() {
    assertThat(spec.size()).isEqualTo(12);
    assertThat(spec.point(0).parameters()).containsExactly(
        Map.entry("load", "0.1"), Map.entry("routing", "minimal"), Map.entry("seed", "1"));
    assertThat(spec.point(1).parameters()).containsEntry("seed", "2").containsEntry("routing", "minimal");
    assertThat(spec.point(2).parameters()).containsEntry("routing", "ugal").containsEntry("seed", "1");
    assertThat(spec.point(11).parameters()).containsExactly(
        Map.entry("load", "0.3"), Map.entry("routing", "ugal"), Map.entry("seed", "2"));
  }

  @Test
  void canonicalTextExpandsRangesAndParsesBack() {
    assertThat(spec.toString()).isEqualTo("load=0.1,0.2,0.3;routing=minimal,ugal;seed=1,2");
    assertThat(SweepSpec.parse(spec.toString())).isEqualTo(spec);
    assertThat(SweepSpec.parse(List.of("load=0.1,0.2,0.3", " routing = minimal, ugal", "seed=1..2"))).isEqualTo(spec);
  }

  @Test
  void shardsInterleavePoints() {
    assertThat(spec.points(Shard.parse("1/5")).stream().map(SweepPoint::index)).containsExactly(1, 6, 11);
    assertThat(spec.points(Shard.ALL)).hasSize(12);
    assertThat(spec.points(new Shard(12, 13))).isEmpty();
    // index + count used to overflow an int and ask for point -2147483648
    assertThat(spec.points(new Shard(1, Integer.MAX_VALUE)).stream().map(SweepPoint::index)).containsExactly(1);
  }

  @Test
  void rangesAtTheEndsOfTheLongRangeExpandOrAreRefusedAndNeverSpin() {
    assertThat(SweepSpec.parse("s=9223372036854775806..9223372036854775807").parameters().get(0).values())
        .containsExactly("9223372036854775806", "9223372036854775807");
    assertThat(SweepSpec.parse("s=-9223372036854775808..-9223372036854775807").parameters().get(0).values())
        .containsExactly("-9223372036854775808", "-9223372036854775807");
    // b - a overflows here, which used to pass the size check
    assertThatThrownBy(() -> SweepSpec.parse("s=-9223372036854775808..9223372036854775807"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most 10000000 values");
  }

  @Test
  void aSweepBeyondTheBoundIsRefusedFromItsCountsNamingEachParametersCount() {
    // counted before any value is made: the ten million seeds were made (seconds) and then printed in the message
    assertThatThrownBy(() -> SweepSpec.parse(List.of("seed=1..10000000", "x=1,2")))
        .hasMessage("a sweep must have at most 10000000 points but has more (values per parameter: seed: 10000000,"
            + " x: 2)");
    assertThatThrownBy(() -> SweepSpec.parse(List.of("a=1..10000000,1..10000000")))
        .hasMessageContaining("a: 10000001"); // (a count is capped one past the bound; the values are not made)
    assertThat(SweepSpec.parse(List.of("a=1..2000", "b=1..5000")).size()).isEqualTo(SweepSpec.MAX_POINTS);
  }

  @Test
  void aRangesValuesRepeatedByALiteralOrAnotherRangeAreRefusedNamingOne() {
    assertThatThrownBy(() -> SweepSpec.parse("s=1..5,3")).hasMessage("parameter s lists value \"3\" twice");
    assertThatThrownBy(() -> SweepSpec.parse("s=1..5,4..8")).hasMessage("parameter s lists value \"4\" twice");
    assertThatThrownBy(() -> SweepSpec.parse("s=a,1..3,a")).hasMessage("parameter s lists value \"a\" twice");
    // a number written another way is the same number (03 is 3); a value that is no number is compared as text
    assertThatThrownBy(() -> SweepSpec.parse("s=1..3,03"))
        .hasMessage("parameter s lists 3 twice, as \"3\" and \"03\"; give each value once");
    assertThat(SweepSpec.parse("s=1..3,03,x").parameters().get(0).values()).containsExactly("1", "2", "3", "03", "x");
  }

  @Test
  void aNumericParametersValuesThatAreOneNumberWrittenTwoWaysAreRefusedNamingBoth() {
    // sizes=05,5 ran one point twice, and merge typed both as 5: two rows of the same coordinates
    assertThatThrownBy(() -> SweepSpec.parse("sizes=05,5"))
        .hasMessage("parameter sizes lists 5 twice, as \"05\" and \"5\"; give each value once");
    assertThatThrownBy(() -> SweepSpec.parse("load=0.1,0.5,0.50"))
        .hasMessage("parameter load lists 0.5 twice, as \"0.5\" and \"0.50\"; give each value once");
    assertThatThrownBy(() -> SweepSpec.parse("load=0.25,2.5e-1")).hasMessageContaining("lists 0.25 twice");
    assertThatThrownBy(() -> SweepSpec.parse("load=0,-0.0")).hasMessageContaining("lists 0.0 twice");
    assertThatThrownBy(() -> SweepSpec.parse("seed=+7,7")).hasMessageContaining("as \"+7\" and \"7\"");
    assertThatThrownBy(() -> SweepSpec.parse("sizes=8,8B")).hasMessageContaining("lists 8 twice");
    assertThatThrownBy(() -> SweepSpec.parse("sizes=4K,4096")).hasMessageContaining("lists 4096 twice");
    assertThatThrownBy(() -> SweepSpec.parse("x=1..10,5.0"))
        .hasMessage("parameter x lists 5 twice, as \"5\" and \"5.0\"; give each value once");
    assertThatThrownBy(() -> SweepSpec.parse("nodes=[8,64],[8,064]"))
        .hasMessage("parameter nodes lists 8,64 twice, as \"8,64\" and \"8,064\"; give each value once");
    assertThatThrownBy(() -> new SweepSpec.Parameter("load", List.of("1", "1.0")))
        .hasMessage("parameter load lists 1.0 twice, as \"1\" and \"1.0\"; give each value once");
    // each parameter on its own: the same number in two parameters is no repeat
    assertThat(SweepSpec.parse("a=05;b=5").size()).isEqualTo(1);
  }

  @Test
  void aParameterWithAValueThatIsNoNumberIsComparedAsText() {
    // a path, a name: run05 and run5 are two directories, and so are 05 and 5 beside one that is no number
    assertThat(SweepSpec.parse("trace=05,5,run5").parameters().get(0).values()).containsExactly("05", "5", "run5");
    assertThat(SweepSpec.parse("x=0.5,0.50,half").size()).isEqualTo(3);
    assertThat(SweepSpec.parse("x=4K,0.5").size()).isEqualTo(2); // a size beside a fraction: no one reading
    assertThat(SweepSpec.parse("nodes=[8,64],[8,064,x]").size()).isEqualTo(2);
    // distinct numbers stay distinct, and keep their texts in the points (merge compares them with the spec's)
    SweepSpec s = SweepSpec.parse("sizes=05,4K,0x;load=0.5,0.55");
    assertThat(s.point(0).parameters()).containsEntry("sizes", "05").containsEntry("load", "0.5");
    assertThat(SweepSpec.parse("sizes=05,4K,4097").toString()).isEqualTo("sizes=05,4K,4097");
  }

  @Test
  void valuesThatAreOneWholeNumberWrittenTwoWaysAreRefused() {
    // sizes=4K,4096 ran one point twice, and its merge had two rows of the same coordinates
    assertThatThrownBy(() -> SweepSpec.parse("sizes=4K,4096"))
        .hasMessage("parameter sizes lists 4096 twice, as \"4K\" and \"4096\"; give each value once");
    assertThatThrownBy(() -> SweepSpec.parse("sizes=1000..1030,1K"))
        .hasMessage("parameter sizes lists 1024 twice, as \"1024\" and \"1K\"; give each value once");
    assertThatThrownBy(() -> SweepSpec.parse("sizes=8,1M,1024K"))
        .hasMessageContaining("parameter sizes lists 1048576 twice");
    assertThatThrownBy(() -> new SweepSpec.Parameter("sizes", List.of("1k", "1K")))
        .hasMessageContaining("lists 1024 twice");
    assertThat(SweepSpec.parse("sizes=4K,8K;name=4K,a4K").size()).isEqualTo(4);
  }

  @Test
  void rejectsMalformedSpecifications() {
    assertThatThrownBy(() -> SweepSpec.parse("load")).hasMessageContaining("name=v1,v2").hasMessageContaining("load");
    assertThatThrownBy(() -> SweepSpec.parse("load=0.1,,0.2")).hasMessageContaining("load");
    assertThatThrownBy(() -> SweepSpec.parse("a=1;a=2")).hasMessageContaining("a is given twice");
    assertThatThrownBy(() -> SweepSpec.parse("a=1,1")).hasMessageContaining("\"1\" twice");
    assertThatThrownBy(() -> SweepSpec.parse("s=5..2")).hasMessageContaining("a <= b").hasMessageContaining("5..2");
    assertThatThrownBy(() -> SweepSpec.parse("a b=1")).hasMessageContaining("parameter name");
    // a topology spec outside brackets splits at its commas into bare options: the message says to bracket it
    assertThatThrownBy(() -> SweepSpec.parse(java.util.List.of("system=canonical:p=2,a=4,h=2")))
        .hasMessageContaining("but one was \"a=4\"").hasMessageContaining("must stand in brackets");
    assertThatThrownBy(() -> SweepSpec.parse(java.util.List.of("x=1,rows=2"))).hasMessageContaining("\"rows=2\"");
    assertThatThrownBy(() -> SweepSpec.parse("load=0.1,,0.2")).hasMessageNotContaining("brackets");
    assertThatThrownBy(() -> SweepSpec.parse("a=0..9999;b=0..9999")).hasMessageContaining("at most 10000000");
    assertThatThrownBy(() -> spec.point(12)).hasMessageContaining("[0, 11]").hasMessageContaining("12");
  }

  @Test
  void aSpecWithAnEqualsSignAfterItsPrefixIsOneValue() {
    // failure sets of a cabled system, and a one-option topology spec, are swept like any value
    String a = "edison-cabled+failed=random:1260:blue:seed=1";
    String b = "edison-cabled+failed=random:1260:blue:seed=2..3";
    SweepSpec s = SweepSpec.parse(java.util.List.of("system=" + a + "," + b + ",aries:groups=9", "seed=1..2"));
    assertThat(s.parameters().get(0).values()).containsExactly(a, b, "aries:groups=9");
    assertThat(s.size()).isEqualTo(6);
    assertThat(SweepSpec.parse(s.toString()).parameters()).isEqualTo(s.parameters());
  }

  @Test
  void aValueInBracketsKeepsItsCommasAndOptions() {
    SweepSpec s = SweepSpec.parse(List.of("system=[canonical:p=2,a=4,h=2], [canonical:p=4,a=8,h=4] ,default",
        "osNoise=none,[period=1ms,detour=10us,phase=aligned]", "n=[1..3],1..2"));
    assertThat(s.parameters().get(0).values())
        .containsExactly("canonical:p=2,a=4,h=2", "canonical:p=4,a=8,h=4", "default");
    assertThat(s.parameters().get(1).values()).containsExactly("none", "period=1ms,detour=10us,phase=aligned");
    // in brackets, a range's text is one literal value
    assertThat(s.parameters().get(2).values()).containsExactly("1..3", "1", "2");
    assertThat(s.size()).isEqualTo(18);
    assertThat(s.point(0).parameters()).containsExactly(Map.entry("system", "canonical:p=2,a=4,h=2"),
        Map.entry("osNoise", "none"), Map.entry("n", "1..3"));
    // the text form brackets what needs it and reads back to the same values
    assertThat(s.toString()).isEqualTo("system=[canonical:p=2,a=4,h=2],[canonical:p=4,a=8,h=4],default;"
        + "osNoise=none,[period=1ms,detour=10us,phase=aligned];n=[1..3],1,2");
    assertThat(SweepSpec.parse(s.toString())).isEqualTo(s);
    // a value given as a value needs no brackets; the text form adds them
    SweepSpec given = SweepSpec.of(List.of(new SweepSpec.Parameter("x", List.of("a=1,b=2", "k=v", "4..5", "p"))));
    assertThat(given.toString()).isEqualTo("x=[a=1,b=2],[k=v],[4..5],p");
    assertThat(SweepSpec.parse(given.toString())).isEqualTo(given);
    // a value in brackets repeats as itself
    assertThatThrownBy(() -> SweepSpec.parse("x=[a],a")).hasMessage("parameter x lists value \"a\" twice");
  }

  @Test
  void bracketsThatDoNotPairUpOrHoldPartOfAValueAreRefusedNamingTheParameter() {
    assertThatThrownBy(() -> SweepSpec.parse("x=[a,b")).hasMessage("values of parameter x have a '[' without its"
        + " ']' in \"[a,b\"");
    assertThatThrownBy(() -> SweepSpec.parse("x=a,b]")).hasMessage("values of parameter x have a ']' without its"
        + " '[' in \"a,b]\"");
    assertThatThrownBy(() -> SweepSpec.parse("x=[a,[b]]")).hasMessageContaining("cannot nest brackets");
    assertThatThrownBy(() -> SweepSpec.parse("x=p[a,b]")).hasMessage("a value of parameter x in brackets must be the"
        + " whole value ([...]) but one was \"p[a,b]\"");
    assertThatThrownBy(() -> SweepSpec.parse("x=[a,b]q")).hasMessageContaining("\"[a,b]q\"");
    assertThatThrownBy(() -> SweepSpec.parse("x=[]")).hasMessageContaining("non-empty");
    assertThatThrownBy(() -> SweepSpec.parse("x=[ ]")).hasMessageContaining("non-empty");
    assertThatThrownBy(() -> SweepSpec.parse("x=[a b]")).hasMessageContaining("whitespace");
    assertThatThrownBy(() -> new SweepSpec.Parameter("x", List.of("a]"))).hasMessageContaining("']'");
  }

  @Test
  void aPathWithDotsIsOneValueNotARange() {
    // a trace beside the checkout ("../shared/traces/...") was refused as a malformed range
    assertThat(SweepSpec.parse("trace=../t/a.meta,x/../b.txt").parameters().get(0).values())
        .containsExactly("../t/a.meta", "x/../b.txt");
    assertThat(SweepSpec.parse("trace=../t/a.meta;seed=1..3").toString()).isEqualTo("trace=../t/a.meta;seed=1..3");
    // an integer before the dots is still a range, and a malformed one is refused
    assertThat(SweepSpec.parse("seed=-1..1").parameters().get(0).values()).containsExactly("-1", "0", "1");
    assertThatThrownBy(() -> SweepSpec.parse("seed=1..x")).hasMessageContaining("must be a..b with integers");
  }

  @Test
  void shardParsingAndValidation() {
    assertThat(Shard.parse(" 3/8 ")).isEqualTo(new Shard(3, 8));
    assertThat(Shard.parse("3/8").toString()).isEqualTo("3/8");
    assertThatThrownBy(() -> Shard.parse("8/8")).hasMessageContaining("[0, 7]").hasMessageContaining("8");
    assertThatThrownBy(() -> Shard.parse("1/0")).hasMessageContaining(">= 1");
    assertThatThrownBy(() -> Shard.parse("x")).hasMessageContaining("i/N").hasMessageContaining("\"x\"");
  }

  @Test
  void theCanonicalTextWritesRunsOfThreeOrMoreIntegersAsRanges() {
    // written out, a range of a million seeds made every point file megabytes long (stop 48)
    assertThat(SweepSpec.parse("seed=1..1000000;load=0.1,0.2").toString()).isEqualTo("seed=1..1000000;load=0.1,0.2");
    assertThat(SweepSpec.parse("x=1,2,3,5,7,8,9,012,10,11,-2,-1,0").toString())
        .isEqualTo("x=1..3,5,7..9,012,10,11,-2..0");
    assertThat(SweepSpec.parse("x=9223372036854775805..9223372036854775807").toString())
        .isEqualTo("x=9223372036854775805..9223372036854775807");
    assertThat(SweepSpec.parse("x=3,2,1,w1,w2,w3").toString()).isEqualTo("x=3,2,1,w1,w2,w3");
  }
}
