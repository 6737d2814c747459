package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Settings of the AMO cache: validation with one-line messages, parse and toString. */
class AmoCacheConfigTest {

  @Test
  void defaultsAreTheSixtyFourEntryDatastoreWrittenBackWhenIdle() {
    assertThat(AmoCacheConfig.defaults()).isEqualTo(new AmoCacheConfig(64, AmoWriteBack.IDLE));
    assertThat(NicConfig.defaults().amoCache()).isEqualTo(AmoCacheConfig.defaults());
    assertThat(AmoCacheConfig.off().enabled()).isFalse();
  }

  @Test
  void entriesOutOfRangeAreRefusedNamingFieldRangeAndValue() {
    assertThatThrownBy(() -> new AmoCacheConfig(-1, AmoWriteBack.IDLE))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("amoCache.entries must be in [0, 4096] but was -1");
    assertThatThrownBy(() -> AmoCacheConfig.defaults().withEntries(4097))
        .hasMessage("amoCache.entries must be in [0, 4096] but was 4097");
    assertThatThrownBy(() -> new AmoCacheConfig(8, null))
        .hasMessage("amoCache.writeBack must be one of idle, eviction but was null");
    assertThatThrownBy(() -> NicConfig.defaults().withAmoCache(null)).hasMessage("amoCache must not be null");
  }

  @Test
  void parseReadsWhatToStringWritesAndRejectsUnknownSettings() {
    AmoCacheConfig c = new AmoCacheConfig(16, AmoWriteBack.EVICTION);
    assertThat(c.toString()).isEqualTo("entries=16,writeBack=eviction");
    assertThat(AmoCacheConfig.parse(c.toString())).isEqualTo(c);
    assertThat(AmoCacheConfig.parse("entries=0")).isEqualTo(AmoCacheConfig.off());
    assertThatThrownBy(() -> AmoCacheConfig.parse("ways=4"))
        .hasMessage("amoCache setting must be one of entries, writeBack but was \"ways\"");
    assertThatThrownBy(() -> AmoCacheConfig.parse("entries=lots"))
        .hasMessage("amoCache.entries must be an integer in [0, 4096] but was \"lots\"");
    assertThatThrownBy(() -> AmoCacheConfig.parse("writeBack=through"))
        .hasMessage("amoCache.writeBack must be one of idle, eviction but was through");
    assertThatThrownBy(() -> AmoCacheConfig.parse("entries"))
        .hasMessage("amoCache setting must be key=value (keys entries, writeBack) but was \"entries\"");
  }

  @Test
  void parseRefusesARepeatedSettingRatherThanTakingTheLast() {
    assertThatThrownBy(() -> AmoCacheConfig.parse("entries=8,writeBack=idle,entries=16"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("amoCache setting entries must be given once but was given twice: \"entries=8,writeBack=idle,entries=16\"");
    assertThatThrownBy(() -> AmoCacheConfig.parse("writeBack=idle, writeBack=eviction"))
        .hasMessageStartingWith("amoCache setting writeBack must be given once");
    assertThat(AmoCacheConfig.parse("writeBack=eviction,entries=8")).isEqualTo(new AmoCacheConfig(8, AmoWriteBack.EVICTION));
  }

  /** Every refusal of parse echoes the text it was given cut short, as HostCacheConfig.parse does (stop 75). */
  @Test
  void refusalsOfLongTextEchoItCutShort() {
    String junk = "x".repeat(100_000);
    for (String text : new String[] {"entries=" + junk, junk, junk + "=1", "entries=1,entries=2," + junk,
        "writeBack=" + junk, "writeBack=idle,writeBack=idle," + junk}) {
      assertThatThrownBy(() -> AmoCacheConfig.parse(text))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("amoCache")
          .message().hasSizeLessThan(400);
    }
  }
}
