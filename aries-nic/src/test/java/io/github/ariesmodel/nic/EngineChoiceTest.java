package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.NetworkAddress;
import org.junit.jupiter.api.Test;

/**
 * The AUTO engine's cut-over follows DMAPP's threshold [S8]: "transfers smaller than the threshold are transferred
 * using cpu-based mechanism, transfers of this size or larger ... off-load" (docs/calibration-sources.md row 13).
 * Until stop 63 a transfer of exactly the threshold (4,096 bytes by default) went by FMA.
 */
class EngineChoiceTest {

  private final StageRig rig = new StageRig(NicConfig.defaults());
  private final PostValidator validator = new PostValidator(0, 2, rig.config, rig.translation, rig.completions);
  private final MemoryDomainDescriptor local = rig.register(1 << 20, MemoryDomainDescriptor.NO_CQ);

  private Post.Engine engine(Post p) {
    return validator.validate(p).engine();
  }

  private Post put(int length) {
    return Post.put(1, local.mdh(), 0, NetworkAddress.of(1, 1, 0), length);
  }

  private Post get(long remoteOffset, int length) {
    return Post.get(1, local.mdh(), 0, NetworkAddress.of(1, 1, remoteOffset), length);
  }

  @Test
  void aTransferOfTheThresholdOrLongerGoesToTheBte() {
    long threshold = rig.config.fmaBteThreshold();
    assertThat(threshold).isEqualTo(4096);
    assertThat(engine(put(4095))).isEqualTo(Post.Engine.FMA);
    assertThat(engine(put(4096))).isEqualTo(Post.Engine.BTE);
    assertThat(engine(put(4097))).isEqualTo(Post.Engine.BTE);
    // a GET is in whole 4-byte words on either engine (NicPostValidationTest): the threshold alone decides
    assertThat(engine(get(0, 4092))).isEqualTo(Post.Engine.FMA);
    assertThat(engine(get(0, 4096))).isEqualTo(Post.Engine.BTE);
    assertThat(engine(get(4, 4100))).isEqualTo(Post.Engine.BTE);
  }

  @Test
  void aZeroThresholdOffloadsEveryTransferButAnEmptyPut() {
    StageRig zero = new StageRig(NicConfig.defaults().withFmaBteThreshold(0));
    PostValidator v = new PostValidator(0, 2, zero.config, zero.translation, zero.completions);
    MemoryDomainDescriptor mine = zero.register(4096, MemoryDomainDescriptor.NO_CQ);
    assertThat(v.validate(Post.put(1, mine.mdh(), 0, NetworkAddress.of(1, 1, 0), 0)).engine())
        .isEqualTo(Post.Engine.FMA);
    assertThat(v.validate(Post.put(1, mine.mdh(), 0, NetworkAddress.of(1, 1, 0), 1)).engine())
        .isEqualTo(Post.Engine.BTE);
  }
}
