package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.cli.system.SystemSpec;
import io.github.ariesmodel.cli.workload.Params;
import io.github.ariesmodel.cli.workload.Workloads;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.iommu.IommuConfig;
import io.github.ariesmodel.network.RouterFabric;
import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.mpi.SyntheticTraffic;
import io.github.ariesmodel.system.trace.PacketTrace;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The integer options with a {@link SharedOptions.Range}: each refusal names the option, its range and the value,
 * whatever was wrong with the value (until stop 77, text that was no integer of Java's type was told Java's range:
 * "--vc-buffer must be an integer from -2147483648 to 2147483647 but was '99999999999'"), and the ranges the command
 * line tells are those the libraries enforce.
 */
class OptionRangeTest {

  /** An option with a range, and the command it belongs to. */
  private record Ranged(String command, OptionSpec option, SharedOptions.Range range) {
    String name() {
      return option.longestName();
    }

    boolean isInt() {
      return option.type() == int.class || option.type() == Integer.class;
    }
  }

  private static List<Ranged> rangedOptions() {
    List<Ranged> found = new ArrayList<>();
    for (Map.Entry<String, CommandLine> c : new CommandLine(new AriesCli()).getSubcommands().entrySet()) {
      for (OptionSpec o : c.getValue().getCommandSpec().options()) {
        SharedOptions.Range r = SharedOptions.rangeOf(o);
        if (r != null) {
          found.add(new Ranged(c.getKey(), o, r));
        }
      }
    }
    return found;
  }

  private static String[] refusal(String... args) {
    StringWriter err = new StringWriter();
    int code = AriesCli.execute(args, new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
    return new String[] {String.valueOf(code), err.toString()};
  }

  private static void assertRefused(Ranged o, String value, String shownAs, boolean sayInteger) {
    // replay needs its TRACE; the range is checked before the command reads it
    String[] r = o.command().equals("replay")
        ? refusal(o.command(), ReplayCommandTest.TRACES.resolve("simgrid-examples/actions_alltoall.txt").toString(),
            o.name(), value)
        : refusal(o.command(), o.name(), value);
    String takes = o.range().powerOfTwo() ? "a power of two " : sayInteger ? "an integer " : "";
    assertThat(r[0]).as(o.command() + " " + o.name() + " " + value).isEqualTo("2");
    assertThat(r[1]).as(o.command() + " " + o.name() + " " + value).isEqualTo("aries " + o.command() + ": " + o.name()
        + " must be " + takes + "in [" + o.range().min() + ", " + o.range().max() + "] but was " + shownAs + " ("
        + o.name() + ")" + System.lineSeparator());
  }

  @Test
  void theRangedOptionsIncludeTheseOfRunReplayTrafficAndIommu() {
    assertThat(rangedOptions()).extracting(o -> o.command() + " " + o.name()).contains("run --trace-limit",
        "replay --ranks-per-node", "replay --background-bytes", "replay --background-nodes",
        "replay --background-steps", "replay --background-ranks-per-node", "traffic --vc-buffer",
        "traffic --busiest-links", "iommu --ways", "iommu --sets", "iommu --ptes-per-line", "iommu --in-flight",
        "iommu --fetch-buffers", "iommu --access-bytes", "iommu --window");
  }

  @Test
  void everyRangedOptionsDefaultIsInItsRange() {
    for (Ranged o : rangedOptions()) {
      Object d = o.option().defaultValue() != null ? Long.valueOf(o.option().defaultValue())
          : o.option().initialValue();
      long v = ((Number) d).longValue();
      assertThat(v).as(o.command() + " " + o.name()).isBetween(o.range().min(), o.range().max());
      if (o.range().powerOfTwo()) {
        assertThat(Long.bitCount(v)).as(o.command() + " " + o.name()).isEqualTo(1);
      }
    }
  }

  @Test
  void everyRangedOptionIsRefusedNamingItsRangeWhateverTheValue() {
    for (Ranged o : rangedOptions()) {
      BigInteger typeMax = BigInteger.valueOf(o.isInt() ? Integer.MAX_VALUE : Long.MAX_VALUE);
      BigInteger typeMin = BigInteger.valueOf(o.isInt() ? Integer.MIN_VALUE : Long.MIN_VALUE);
      // beyond the type: the converter's failure, told with the option's range
      assertRefused(o, typeMax.add(BigInteger.ONE).toString(), typeMax.add(BigInteger.ONE).toString(), false);
      assertRefused(o, typeMin.subtract(BigInteger.ONE).toString(), typeMin.subtract(BigInteger.ONE).toString(),
          false);
      assertRefused(o, "99999999999999999999999", "99999999999999999999999", false);
      // no integer at all
      assertRefused(o, "abc", "'abc'", true);
      assertRefused(o, "1.5", "'1.5'", true);
      // in the type, outside the range
      assertRefused(o, String.valueOf(o.range().min() - 1), String.valueOf(o.range().min() - 1), false);
      if (BigInteger.valueOf(o.range().max()).compareTo(typeMax) < 0) {
        assertRefused(o, String.valueOf(o.range().max() + 1), String.valueOf(o.range().max() + 1), false);
      }
    }
  }

  @Test
  void theRangesToldAreThoseTheLibrariesEnforce() {
    Map<String, IntConsumer> library = Map.of(
        "traffic --vc-buffer", v -> RouterFabric.builder(Topologies.parseTopology("canonical:p=2,a=4,h=2"),
            new DeterministicEventLoop()).vcBufferBytes(v),
        // the other two factors of the cache's size at 1, so that only the one studied is at its bound
        "iommu --ways", v -> IommuConfig.builder().ways(v).sets(1).ptesPerLine(1).build(),
        "iommu --sets", v -> IommuConfig.builder().sets(v).ways(1).ptesPerLine(1).build(),
        "iommu --ptes-per-line", v -> IommuConfig.builder().ptesPerLine(v).sets(1).ways(1).build(),
        "iommu --in-flight", v -> IommuConfig.builder().maxInFlight(v).build(),
        "iommu --fetch-buffers", v -> IommuConfig.builder().fetchBuffers(v).build(),
        "run --trace-limit", v -> new PacketTrace(v, PacketTrace.Filter.all()),
        "replay --background-bytes", v -> SyntheticTraffic.uniform(v, 0, 0, 1));
    int checked = 0;
    for (Ranged o : rangedOptions()) {
      IntConsumer set = library.get(o.command() + " " + o.name());
      if (set == null) {
        continue; // checked by the command alone
      }
      int min = Math.toIntExact(o.range().min());
      int max = Math.toIntExact(o.range().max());
      String what = o.command() + " " + o.name();
      assertThatCode(() -> set.accept(min)).as(what + " " + min).doesNotThrowAnyException();
      assertThatCode(() -> set.accept(max)).as(what + " " + max).doesNotThrowAnyException();
      assertThatThrownBy(() -> set.accept(min - 1)).as(what + " " + (min - 1))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> set.accept(max + 1)).as(what + " " + (max + 1))
          .isInstanceOf(IllegalArgumentException.class);
      if (o.range().powerOfTwo()) {
        assertThatThrownBy(() -> set.accept(min + 2)).as(what + " " + (min + 2))
            .isInstanceOf(IllegalArgumentException.class);
      }
      checked++;
    }
    assertThat(checked).isEqualTo(library.size());
  }

  /** A floating-point option with a {@link SharedOptions.DecimalRange}, and the command it belongs to. */
  private record Decimal(String command, OptionSpec option, SharedOptions.DecimalRange range) {
    String name() {
      return option.longestName();
    }
  }

  private static List<Decimal> decimalOptions() {
    List<Decimal> found = new ArrayList<>();
    for (Map.Entry<String, CommandLine> c : new CommandLine(new AriesCli()).getSubcommands().entrySet()) {
      for (OptionSpec o : c.getValue().getCommandSpec().options()) {
        SharedOptions.DecimalRange r = SharedOptions.decimalRangeOf(o);
        if (r != null) {
          found.add(new Decimal(c.getKey(), o, r));
        }
      }
    }
    return found;
  }

  private static void assertRefused(Decimal o, String value, String said) {
    String[] r = o.command().equals("replay")
        ? refusal(o.command(), ReplayCommandTest.TRACES.resolve("simgrid-examples/actions_alltoall.txt").toString(),
            o.name(), value)
        : refusal(o.command(), o.name(), value);
    String what = o.command() + " " + o.name() + " " + value;
    assertThat(r[0]).as(what).isEqualTo("2");
    assertThat(r[1]).as(what).isEqualTo("aries " + o.command() + ": " + o.name() + " " + said + " (" + o.name() + ")"
        + System.lineSeparator());
  }

  @Test
  void everyFloatingPointOptionOfRunReplayTrafficAndIommuHasARange() {
    List<String> unranged = new ArrayList<>();
    // replay's until stop 78: "--start-us abc" said "must be a number", without the range
    for (String command : List.of("run", "replay", "traffic", "iommu")) {
      for (OptionSpec o : new CommandLine(new AriesCli()).getSubcommands().get(command).getCommandSpec().options()) {
        if ((o.type() == double.class || o.type() == Double.class) && SharedOptions.decimalRangeOf(o) == null) {
          unranged.add(command + " " + o.longestName());
        }
      }
    }
    assertThat(unranged).isEmpty();
    assertThat(decimalOptions()).extracting(o -> o.command() + " " + o.name()).contains("traffic --load",
        "traffic --warmup-us", "traffic --measure-us", "traffic --drain-limit-us", "iommu --fetch-latency-ns",
        "iommu --hit-latency-ns", "iommu --issue-interval-ns", "replay --background-gap-us", "replay --start-us",
        "replay --background-start-us");
  }

  @Test
  void replaysRangesAreThoseItsWorkloadEnforces() {
    // each parameter read with a background and a with trace beside it, so that every start means something
    Map<String, String> parameter = Map.of("replay --background-gap-us", "backgroundGapUs", "replay --start-us",
        "startUs", "replay --background-start-us", "backgroundStartUs");
    AriesSystem system = SystemSpec.of("aries-small", 1).build();
    String trace = ReplayCommandTest.TRACES.resolve("simgrid-examples/actions_alltoall.txt").toString();
    int checked = 0;
    for (Decimal o : decimalOptions()) {
      String name = parameter.get(o.command() + " " + o.name());
      if (name == null) {
        continue;
      }
      java.util.function.DoubleConsumer check = v -> Workloads.byName("replay").check(system, Params.of(Map.of(
          "trace", trace, "with", trace, "background", "uniform", name, Double.toString(v))));
      String what = o.command() + " " + o.name();
      double min = o.range().min();
      double max = o.range().max();
      assertThatCode(() -> check.accept(min)).as(what + " " + min).doesNotThrowAnyException();
      assertThatCode(() -> check.accept(max)).as(what + " " + max).doesNotThrowAnyException();
      assertThatThrownBy(() -> check.accept(Math.nextDown(min))).as(what + " below")
          .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith(name + " must be in");
      assertThatThrownBy(() -> check.accept(Math.nextUp(max))).as(what + " above")
          .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith(name + " must be in");
      checked++;
    }
    assertThat(checked).isEqualTo(parameter.size());
  }

  @Test
  void everyFloatingPointOptionsDefaultIsInItsRange() {
    for (Decimal o : decimalOptions()) {
      Object d = o.option().defaultValue() != null ? Double.valueOf(o.option().defaultValue())
          : o.option().initialValue();
      if (d == null) {
        continue; // (a list of values, --with-start-us: absent unless given, so no default to hold to its range)
      }
      double v = ((Number) d).doubleValue();
      String what = o.command() + " " + o.name();
      assertThat(o.range().minExclusive() ? v > o.range().min() : v >= o.range().min()).as(what + " " + v).isTrue();
      assertThat(v).as(what).isLessThanOrEqualTo(o.range().max());
    }
  }

  @Test
  void everyFloatingPointOptionIsRefusedNamingItsRangeWhateverTheValue() {
    // until stop 78 "--load abc" said "--load must be a number but was 'abc'", without the range
    for (Decimal o : decimalOptions()) {
      String range = SharedOptions.text(o.range());
      assertRefused(o, "abc", "must be a number in " + range + " but was 'abc'");
      assertRefused(o, "NaN", "must be a finite number in " + range + " but was 'NaN'");
      double below = o.range().minExclusive() ? o.range().min() : o.range().min() - 1;
      assertRefused(o, String.valueOf(below), "must be in " + range + " but was " + below);
      double above = o.range().max() * 2;
      assertRefused(o, String.valueOf(above), "must be in " + range + " but was " + above);
    }
  }

  @Test
  void theRangesAreWrittenAsPeopleWriteThem() {
    Map<String, String> expected = Map.of("traffic --load", "[0.0001, 2]", "traffic --measure-us",
        "[1e-6, 1e9] (at least 1 ps)", "traffic --drain-limit-us", "(0, 1e6]", "iommu --hit-latency-ns",
        "[0, 1e6] ns (1 ms)");
    Map<String, String> told = new java.util.HashMap<>();
    decimalOptions().forEach(o -> told.put(o.command() + " " + o.name(), SharedOptions.text(o.range())));
    assertThat(told).containsAllEntriesOf(expected);
  }
}
