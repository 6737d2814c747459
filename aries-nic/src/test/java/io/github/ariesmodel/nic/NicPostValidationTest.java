package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.AmoOperation;
import io.github.ariesmodel.core.LittleEndian;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.NetworkAddress;
import org.junit.jupiter.api.Test;

/** Caller mistakes in a post are IllegalArgumentExceptions naming the parameter, the valid range and the value. */
class NicPostValidationTest {

  private final Cluster c = new Cluster(2, NicConfig.defaults());
  private final MemoryDomainDescriptor local = c.register(0, 8192);
  private final MemoryDomainDescriptor remote = c.register(1, 8192);

  private NetworkAddress at(long offset) {
    return NetworkAddress.of(1, remote.mdh(), offset);
  }

  @Test
  void zeroLengthGet() {
    assertThatThrownBy(() -> c.nics[0].post(Post.get(1, local.mdh(), 0, at(0), 0)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("post.length").hasMessageContaining("GET")
        .hasMessageContaining("0");
  }

  @Test
  void aCompletionQueueOfANicWithNoneIsRefusedSayingItHasNone() {
    assertThatThrownBy(() -> c.nics[0].post(Post.put(1, local.mdh(), 0, at(0), 8).withCompletion(0,
        Post.GLOBAL_EVENT))).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("post.completionQueue must name a CQ of node 0 (it has none) but was 0");
    c.nics[0].createCompletionQueue(8);
    assertThatThrownBy(() -> c.nics[0].post(Post.put(1, local.mdh(), 0, at(0), 8).withCompletion(3,
        Post.GLOBAL_EVENT))).hasMessage("post.completionQueue must name a CQ of node 0 (handles 0..0 exist) but was 3");
  }

  @Test
  void zeroLengthAmo() {
    AmoOperation op = AmoOperation.parse("FADD");
    Post zero = new Post(Post.PostType.AMO, Post.Engine.FMA, 1, Post.NO_LOCAL, 0, at(0), 0, op, 1, 0,
        io.github.ariesmodel.core.DeliveryMode.ADAPTIVE_0, Post.NO_CQ, Post.GLOBAL_EVENT, false);
    assertThatThrownBy(() -> c.nics[0].post(zero)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("post.length must be 8 for FADD").hasMessageContaining("was 0");
  }

  @Test
  void bteGetNotFourByteAligned() {
    assertThatThrownBy(() -> c.nics[0].post(Post.get(1, local.mdh(), 0, at(2), 100).withEngine(Post.Engine.BTE)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("multiples of 4")
        .hasMessageContaining("were 2 and 100");
    assertThatThrownBy(() -> c.nics[0].post(Post.get(1, local.mdh(), 0, at(4), 101).withEngine(Post.Engine.BTE)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("were 4 and 101");
  }

  /**
   * uGNI refuses a GET whose remote address or length is not in whole 4-byte words on FMA as on the BTE
   * (GNI_RC_ALIGNMENT_ERROR, gni_pub.h [S5]; libfabric's and Open MPI's uGNI layers round their reads for it): until
   * stop 75 the model refused only BTE GETs, and AUTO sent an unaligned long GET to FMA, where it succeeded.
   */
  @Test
  void anFmaOrAutoGetNotInWholeWordsIsRefusedAndSendsNothing() {
    String rule = "a GET (FMA or BTE) needs post.remote.offset and post.length to be multiples of 4 (uGNI's"
        + " GNI_RC_ALIGNMENT_ERROR [S5][S6a]) but they were ";
    assertThatThrownBy(() -> c.nics[0].post(Post.get(1, local.mdh(), 0, at(3), 5).withEngine(Post.Engine.FMA)))
        .isInstanceOf(IllegalArgumentException.class).hasMessage(rule + "3 and 5");
    assertThatThrownBy(() -> c.nics[0].post(Post.get(2, local.mdh(), 0, at(0), 6).withEngine(Post.Engine.FMA)))
        .isInstanceOf(IllegalArgumentException.class).hasMessage(rule + "0 and 6");
    assertThatThrownBy(() -> c.nics[0].post(Post.get(3, local.mdh(), 0, at(2), 8)))
        .isInstanceOf(IllegalArgumentException.class).hasMessage(rule + "2 and 8");
    assertThatThrownBy(() -> c.nics[0].post(Post.get(4, local.mdh(), 1, at(3), 5001)))
        .isInstanceOf(IllegalArgumentException.class).hasMessage(rule + "3 and 5001");
    c.run();
    assertThat(c.events).isEmpty();
    assertThat(c.nics[0].statistics().packetsSent()).isZero();
    // the local side has no such rule: an aligned remote range may land at any local offset, on either engine
    c.nics[0].post(Post.get(5, local.mdh(), 1, at(4), 8).withEngine(Post.Engine.FMA));
    c.nics[0].post(Post.get(6, local.mdh(), 3, at(8), 5000));
    c.run();
    assertThat(c.events).hasSize(2).allMatch(e -> !e.isError());
  }

  @Test
  void amoNotNaturallyAligned() {
    assertThatThrownBy(() -> c.nics[0].post(Post.amo(1, AmoOperation.parse("FIADD"), at(4), 1, 0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("post.remote.offset must be a multiple of 8 for FIADD but was 4");
    assertThatThrownBy(() -> c.nics[0].post(Post.amo(1, AmoOperation.parse("FIADD_S"), at(6), 1, 0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("post.remote.offset must be a multiple of 4 for FIADD_S but was 6");
    assertThatThrownBy(() -> c.nics[0].post(Post.amo(1, AmoOperation.parse("FIADD"), at(8), 1, 0)
        .withResultBuffer(local.mdh(), 3)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("post.localOffset")
        .hasMessageContaining("was 3");
  }

  @Test
  void lengthBeyondTheBteLimit() {
    assertThatThrownBy(() -> Post.put(1, local.mdh(), 0, at(0), 1L << 32))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("length must be in [0, 4294967295]")
        .hasMessageContaining("4294967296");
  }

  @Test
  void unknownHandles() {
    assertThatThrownBy(() -> c.nics[0].post(Post.put(1, 999, 0, at(0), 8)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("post.localMdh")
        .hasMessageContaining("999");
    assertThatThrownBy(() -> c.nics[0].post(Post.put(1, local.mdh(), 0, at(0), 8).withCompletion(5, 2)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("post.completionQueue")
        .hasMessageContaining("was 5");
    assertThatThrownBy(() -> c.nics[0].post(Post.put(1, local.mdh(), 0, NetworkAddress.of(2, 0, 0), 8)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("post.remote.nodeId must be in [0, 1]")
        .hasMessageContaining("was 2");
    assertThatThrownBy(() -> c.nics[0].register(MemoryRegistration.of(0, 4096, 1, 1).withCompletionQueue(3)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("registration.completionQueue")
        .hasMessageContaining("was 3");
  }

  @Test
  void localRangeAndPermission() {
    assertThatThrownBy(() -> c.nics[0].post(Post.put(1, local.mdh(), 8000, at(0), 200)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("post.localOffset + length must be <= 8192")
        .hasMessageContaining("8000 + 200");
    MemoryDomainDescriptor ro = c.nics[0].register(MemoryRegistration.of(0x40_0000L, 4096, 1, 1).withWritable(false));
    assertThatThrownBy(() -> c.nics[0].post(Post.get(1, ro.mdh(), 0, at(0), 8)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("read-only");
    c.nics[0].deregister(local.mdh());
    assertThatThrownBy(() -> c.nics[0].post(Post.put(1, local.mdh(), 0, at(0), 8)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not registered");
  }

  /**
   * A local buffer registered in another protection domain than the one the NIC posts as is refused at post, whatever
   * the post does with it (uGNI's GNI_RC_PERMISSION_ERROR counterpart [S5]). Until stop 75 it was accepted: a
   * fetching AMO whose result buffer it was added to the remote word and then reported PROTECTION_VIOLATION.
   */
  @Test
  void aLocalBufferOfAnotherProtectionDomainIsRefusedAndTouchesNothing() {
    MemoryDomainDescriptor otherKey = c.nics[0].register(MemoryRegistration.of(0x40_0000L, 4096, 1, 999));
    MemoryDomainDescriptor otherTag = c.nics[0].register(MemoryRegistration.of(0x80_0000L, 4096, 7, 1));
    c.write(1, remote.mdh(), 0, LittleEndian.ofLong(100));
    String key = "post.localMdh " + otherKey.mdh() + " belongs to protection domain (ptag 1, pkey 999) but node 0's"
        + " NIC posts as (1, 1)";
    assertThatThrownBy(() -> c.nics[0].post(Post.amo(1, AmoOperation.parse("FIADD"), at(0), 5, 0)
        .withResultBuffer(otherKey.mdh(), 0))).isInstanceOf(IllegalArgumentException.class).hasMessage(key);
    assertThatThrownBy(() -> c.nics[0].post(Post.put(2, otherKey.mdh(), 0, at(8), 8))).hasMessage(key);
    assertThatThrownBy(() -> c.nics[0].post(Post.get(3, otherKey.mdh(), 0, at(8), 8))).hasMessage(key);
    assertThatThrownBy(() -> c.nics[0].post(Post.get(4, otherTag.mdh(), 0, at(8), 8))).hasMessage("post.localMdh "
        + otherTag.mdh() + " belongs to protection domain (ptag 7, pkey 1) but node 0's NIC posts as (1, 1)");
    c.run();
    assertThat(c.events).isEmpty();
    assertThat(c.nics[0].statistics().packetsSent()).isZero();
    assertThat(c.readLong(1, remote.mdh(), 0)).as("the remote word").isEqualTo(100);
    // the same AMO with a result buffer of the NIC's own domain fetches the word and adds to it
    c.nics[0].post(Post.amo(5, AmoOperation.parse("FIADD"), at(0), 5, 0).withResultBuffer(local.mdh(), 0));
    c.run();
    assertThat(c.events).singleElement().matches(e -> !e.isError() && e.userData() == 100);
    assertThat(c.readLong(1, remote.mdh(), 0)).isEqualTo(105);
    assertThat(c.readLong(0, local.mdh(), 0)).isEqualTo(100);
  }

  /**
   * A CQ takes local events (a post names it) or remote events (a registration names it), "but not both"
   * (gni_pub.h's GNI_CqCreate [S5]): the second use is refused at post or at register, naming the queue. Until stop 75
   * both were accepted.
   */
  @Test
  void aQueueTakesLocalOrRemoteEventsNotBoth() {
    CompletionQueue remoteCq = c.nics[1].createCompletionQueue(16);
    MemoryDomainDescriptor target = c.nics[1].register(MemoryRegistration.of(0x40_0000L, 4096, 1, 1)
        .withCompletionQueue(remoteCq.handle()));
    assertThatThrownBy(() -> c.nics[1].post(Post.put(1, remote.mdh(), 0, NetworkAddress.of(0, local.mdh(), 0), 8)
        .withCompletion(remoteCq.handle(), Post.GLOBAL_EVENT))).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("post.completionQueue " + remoteCq.handle() + " of node 1 takes remote events (a memory"
            + " registration named it) and a CQ takes local or remote events, not both (GNI_CqCreate [S5]): name"
            + " another CQ for the post's events");
    CompletionQueue localCq = c.nics[0].createCompletionQueue(16);
    c.nics[0].post(Post.put(2, local.mdh(), 0, NetworkAddress.of(1, target.mdh(), 0), 8)
        .withCompletion(localCq.handle(), Post.GLOBAL_EVENT | Post.REMOTE_EVENT));
    int registered = registrations(0);
    assertThatThrownBy(() -> c.nics[0].register(MemoryRegistration.of(0x80_0000L, 4096, 1, 1)
        .withCompletionQueue(localCq.handle()))).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("registration.completionQueue " + localCq.handle() + " of node 0 takes local events (a post"
            + " named it) and a CQ takes local or remote events, not both (GNI_CqCreate [S5]): name another CQ for"
            + " remote events");
    assertThat(registrations(0)).as("nothing registered").isEqualTo(registered);
    c.run();
    // each queue still serves its own side
    assertThat(localCq.getEvent()).matches(e -> e.postId() == 2 && !e.isError());
    assertThat(remoteCq.getEvent()).matches(e -> e.type() == io.github.ariesmodel.core.CompletionType.REMOTE);
    assertThat(c.nics[1].statistics().packetsSent()).as("node 1 sent only the ACK").isEqualTo(1);
  }

  private int registrations(int node) {
    int n = 0;
    for (int mdh = 0; mdh <= NetworkAddress.MAX_MDH; mdh++) {
      if (c.translation[node].descriptor(mdh).filter(MemoryDomainDescriptor::valid).isPresent()) {
        n++;
      }
    }
    return n;
  }

  @Test
  void postFieldsOutOfRange() {
    assertThatThrownBy(() -> Post.put(1, local.mdh(), 0, at(0), 8).withCompletion(-1, 8))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("completionModes").hasMessageContaining("8");
    assertThatThrownBy(() -> Post.cqWrite(1, 1, 2048, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("remoteCq must be in [0, 2047] but was 2048");
    assertThatThrownBy(() -> Post.cqWrite(1, 1, 0, 1L << 48)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("2^48");
    assertThatThrownBy(() -> Post.amo(1, AmoOperation.parse("FADD"), at(0), 0, 0).withEngine(Post.Engine.BTE))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("engine must be FMA or AUTO");
    assertThatThrownBy(() -> c.nics[0].createCompletionQueue(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("entries must be in [1,").hasMessageContaining("was 0");
  }
}
