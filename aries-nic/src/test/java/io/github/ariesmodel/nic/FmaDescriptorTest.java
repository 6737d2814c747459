package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.NetworkAddress;
import org.junit.jupiter.api.Test;

/**
 * Each process of a node posts through its own FMA descriptor [S1 p.19], so the CPU time of posts is booked per
 * descriptor: processes post concurrently, and only what follows their stores (host link, tags, issue pipeline) is
 * shared. Until stop 70 every post of a NIC was booked on one CPU.
 */
class FmaDescriptorTest {

  private static final long POST_PS = 40_000;

  private static StageRig rig() {
    return new StageRig(NicConfig.defaults().withTiming(NicTiming.defaults().withFma(POST_PS,
        Double.POSITIVE_INFINITY, 0)));
  }

  @Test
  void postsOfTwoDescriptorsCostTheirOwnCpusAndOnlyOneDescriptorsPostsQueue() {
    StageRig rig = rig();
    MemoryDomainDescriptor local = rig.register(1 << 20, -1);
    for (int i = 0; i < 4; i++) {
      rig.table.accept(Post.put(i, local.mdh(), 0, NetworkAddress.of(1, 5, 64L * i), 8), i % 2);
    }
    // two posts each on descriptors 0 and 1: each process's CPU is busy 80 ns, not one CPU 160 ns
    assertThat(rig.table.cpuFreeAt()).isEqualTo(2 * POST_PS);
    rig.loop.run();
    assertThat(rig.fabric.times).hasSize(4);
    // the two first posts' requests leave one issue slot apart, not 40 ns (a CPU's post) apart
    assertThat(rig.fabric.times.get(1) - rig.fabric.times.get(0)).isLessThan(POST_PS);
    assertThat(rig.fabric.times.get(3) - rig.fabric.times.get(0)).isLessThan(2 * POST_PS);
  }

  @Test
  void aNicRefusesADescriptorOutsideItsOneHundredTwentySeven() {
    Cluster c = new Cluster(2, NicConfig.defaults());
    Post p = Post.putValue(1, NetworkAddress.of(1, 5, 0), 7, 8);
    assertThatThrownBy(() -> c.nics[0].post(p, 127))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("descriptor must be in [0, 126] (the NIC's FMA descriptors [S1 p.19]) but was 127");
    assertThatThrownBy(() -> c.nics[0].post(p, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("but was -1");
  }

  @Test
  void attachGivesTheLowestFreeDescriptorAndRefusesTheHundredTwentyEighth() {
    Cluster c = new Cluster(2, NicConfig.defaults());
    Nic nic = c.nics[0];
    for (int d = 0; d < Nic.FMA_DESCRIPTORS; d++) {
      assertThat(nic.attachFmaDescriptor()).isEqualTo(d);
    }
    assertThat(nic.fmaDescriptorsAttached()).isEqualTo(127);
    assertThatThrownBy(nic::attachFmaDescriptor)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("node 0 has no free FMA descriptor: processes hold all 127 (S1 p.19: at most 127 a NIC); detach"
            + " one (detachFmaDescriptor) or share");
    assertThat(nic.fmaDescriptorsAttached()).isEqualTo(127);
    assertThat(nic.tryAttachFmaDescriptor()).as("the layers' form: -1 instead of a refusal").isEqualTo(-1);
    assertThat(nic.fmaDescriptorsAttached()).isEqualTo(127);
    // a detached descriptor (here one in the second word, above 63) is the next one handed out, then the lowest
    nic.detachFmaDescriptor(70);
    nic.detachFmaDescriptor(5);
    assertThat(nic.fmaDescriptorsAttached()).isEqualTo(125);
    assertThat(nic.attachFmaDescriptor()).isEqualTo(5);
    assertThat(nic.attachFmaDescriptor()).isEqualTo(70);
    // the other node's NIC has its own descriptors
    assertThat(c.nics[1].attachFmaDescriptor()).isZero();
  }

  @Test
  void detachRefusesADescriptorNotAttachedAndChangesNothing() {
    Cluster c = new Cluster(2, NicConfig.defaults());
    Nic nic = c.nics[0];
    assertThatThrownBy(() -> nic.detachFmaDescriptor(3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("descriptor must be an FMA descriptor attached on node 0 (none is) but was 3");
    assertThat(nic.attachFmaDescriptor()).isZero();
    assertThat(nic.attachFmaDescriptor()).isEqualTo(1);
    nic.detachFmaDescriptor(0);
    assertThatThrownBy(() -> nic.detachFmaDescriptor(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("descriptor must be an FMA descriptor attached on node 0 (attached: 1) but was 0");
    assertThatThrownBy(() -> nic.detachFmaDescriptor(127))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("descriptor must be in [0, 126] (the NIC's FMA descriptors [S1 p.19]) but was 127");
    assertThat(nic.fmaDescriptorsAttached()).isEqualTo(1);
    assertThat(nic.attachFmaDescriptor()).isZero();
  }

  @Test
  void aCollectivePostCostsItsOwnProcessesCpuNotDescriptorZeros() {
    Cluster c = new Cluster(1, NicConfig.defaults());
    Nic nic = c.nics[0];
    int channel = nic.createCollectiveChannel();
    nic.configureCollectiveChannel(channel, CeChannelConfig.of(java.util.List.of(CeChild.pe()), null));
    MemoryDomainDescriptor result = c.register(0, 4096);
    nic.postCollective(CePost.of(1, channel, 0, CeOperation.IADD, 5, 0, result.mdh(), 0, Post.NO_CQ), 7);
    long post = NicTiming.defaults().fmaPostPs();
    assertThat(nic.postStoresDoneAt(7)).as("the posting process's stores").isEqualTo(post);
    assertThat(nic.postStoresDoneAt(0)).as("descriptor 0's process made no post").isZero();
    assertThatThrownBy(() -> nic.postCollective(CePost.of(2, channel, 0, CeOperation.IADD, 5, 0, result.mdh(), 0,
        Post.NO_CQ), 127)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("descriptor must be in [0, 126] (the NIC's FMA descriptors [S1 p.19]) but was 127");
    c.run();
    assertThat(nic.collectiveResult(result.mdh(), 0).status()).isEqualTo(io.github.ariesmodel.core.Status.OK);
  }
}
