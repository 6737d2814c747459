package io.github.ariesmodel.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.system.trace.PacketTrace;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * A null given to the system module's public methods and records is one {@link IllegalArgumentException} line naming
 * the parameter, not a bare {@link NullPointerException} (a read-only hunt of the library's API).
 */
class SystemNullArgumentTest {

  private static void refused(String message, ThrowingCallable call) {
    assertThatThrownBy(call).isInstanceOf(IllegalArgumentException.class).hasMessage(message);
  }

  private static SystemStatistics.LinkRank rank(String name) {
    return new SystemStatistics.LinkRank(name, 4, 10, java.math.BigInteger.valueOf(100));
  }

  private static SystemStatistics snapshot(SystemStatistics.Fabric fabric) {
    Map<TranslationClient, SystemStatistics.Translations> tr = new EnumMap<>(TranslationClient.class);
    for (TranslationClient c : TranslationClient.values()) {
      tr.put(c, new SystemStatistics.Translations(1, 1, 0, 0));
    }
    return new SystemStatistics(5, 6, 1, new SystemStatistics.Nics(1, 2, 3, 4, 5, 6, 7, 8), 1, tr, fabric);
  }

  @Test
  void statisticsNameTheNullParameter() {
    SystemStatistics s = snapshot(new SystemStatistics.Fabric(1, 1, 2, 0, List.of(rank("local"))));
    refused("o must not be null", () -> s.plus(null));
    refused("o must not be null", () -> s.nics().plus(null));
    refused("o must not be null", () -> s.translations().get(TranslationClient.NETWORK_REQUEST).plus(null));
    refused("o must not be null", () -> s.fabric().plus(null));
    refused("o must not be null", () -> rank("local").plus(null));
    refused("name must not be null", () -> rank(null));
    refused("links must not be null", () -> new SystemStatistics.Fabric(1, 1, 2, 0, null));
    refused("links[1] must not be null",
        () -> new SystemStatistics.Fabric(1, 1, 2, 0, java.util.Arrays.asList(rank("local"), null)));
    Map<TranslationClient, SystemStatistics.Translations> holed = new EnumMap<>(TranslationClient.class);
    for (TranslationClient c : TranslationClient.values()) {
      holed.put(c, new SystemStatistics.Translations(0, 0, 0, 0));
    }
    holed.put(TranslationClient.NETWORK_REQUEST, null);
    assertThatThrownBy(() -> new SystemStatistics(0, 0, 0, s.nics(), 0, holed, null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("translations must hold every client");
    // the snapshots still add up after the refusals
    SystemStatistics sum = s.plus(s);
    assertThat(sum.events()).isEqualTo(12);
    assertThat(sum.fabric().links()).containsExactly(new SystemStatistics.LinkRank("local", 8, 20, java.math.BigInteger.valueOf(200)));
  }

  @Test
  void aTraceAndAPresetNameTheNullParameter() throws Exception {
    PacketTrace trace = new PacketTrace(10);
    refused("file must not be null", () -> trace.write((Path) null));
    refused("w must not be null", () -> trace.write((Writer) null));
    refused("inner must not be null", () -> trace.wrap(null));
    StringWriter w = new StringWriter();
    trace.write(w);
    assertThat(w.toString()).startsWith("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"recorded\":0,");
    refused("spec must not be null", () -> SystemPreset.topologySpec(null));
    assertThat(SystemPreset.topologySpec("cabled:theta")).isEqualTo("cabled:aries:groups=9");
  }
}
