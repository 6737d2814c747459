package io.github.ariesmodel.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.spi.HostCache;
import io.github.ariesmodel.network.Topologies;
import org.junit.jupiter.api.Test;

/** A system builder given a nameless topology or factories that make nothing: one line naming the setting. */
class AriesSystemBuilderMisuseTest {

  @Test
  void aTopologyWithoutANameIsRefused() {
    AriesSystem.Builder b = AriesSystem.builder();
    assertThatThrownBy(() -> b.topology(Topologies.ariesSmall(), null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("systemName must not be blank");
    assertThatThrownBy(() -> b.topology(Topologies.ariesSmall(), " ")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("systemName must not be blank");
    // the refusals left the builder as it was: its default system
    assertThat(b.build().name()).isEqualTo(SystemPreset.DEFAULT.id());
    assertThat(AriesSystem.builder().topology(Topologies.ariesSmall(), "small").build().name()).isEqualTo("small");
  }

  @Test
  void nullRouterSettingsAreRefusedAsTheOtherSettersRefuseNullAndANullTraceMeansNone() {
    AriesSystem.Builder b = AriesSystem.builder().topology(Topologies.ariesSmall(), "small");
    // (it was taken without a word, as no settings, while every other setting without a meaning for null refused it)
    assertThatThrownBy(() -> b.routerSettings(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("routerSettings must not be null (leave it out for the router fabric's defaults)");
    // settings given before the refusal stay
    int[] applied = {0};
    b.routerSettings(fb -> applied[0]++);
    assertThatThrownBy(() -> b.routerSettings(null)).isInstanceOf(IllegalArgumentException.class);
    b.build();
    assertThat(applied[0]).isEqualTo(1);
    // null is documented for a trace: none, taking back one given before (the command line passes it so)
    io.github.ariesmodel.system.trace.PacketTrace trace = new io.github.ariesmodel.system.trace.PacketTrace(10);
    AriesSystem untraced = AriesSystem.builder().topology(Topologies.ariesSmall(), "small").trace(trace).trace(null)
        .build();
    assertThat(untraced.fabric()).isSameAs(untraced.routerFabric().orElseThrow());
  }

  @Test
  void aHostCacheFactoryThatReturnsNullIsNamedWithTheNode() {
    AriesSystem sys = AriesSystem.builder().topology(Topologies.ariesSmall(), "small")
        .hostCache((node, memory) -> node == 3 ? null : HostCache.none(memory)).build();
    assertThat(sys.node(2).hostCache()).hasToString("none");
    assertThatThrownBy(() -> sys.node(3)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the hostCache factory must return a cache but returned null for node 3");
    assertThat(sys.builtNodes()).isEqualTo(1);
  }

  @Test
  void aTranslatorFactoryThatReturnsNullIsNamedWithTheNode() {
    AriesSystem sys = AriesSystem.builder().topology(Topologies.ariesSmall(), "small")
        .translator((node, memory, clock) -> null).build();
    assertThatThrownBy(() -> sys.node(5)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the translator factory must return a translation but returned null for node 5");
    assertThat(sys.builtNodes()).isZero();
  }

  @Test
  void aNodeRecordRefusesMissingPartsAndAnotherNodesNic() {
    AriesSystem sys = AriesSystem.builder().topology(Topologies.ariesSmall(), "small").build();
    Node n = sys.node(2);
    assertThatThrownBy(() -> new Node(2, null, n.hostCache(), n.translation(), n.nic()))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("memory must not be null");
    assertThatThrownBy(() -> new Node(2, n.memory(), null, n.translation(), n.nic()))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("hostCache must not be null");
    assertThatThrownBy(() -> new Node(2, n.memory(), n.hostCache(), null, n.nic()))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("translation must not be null");
    assertThatThrownBy(() -> new Node(2, n.memory(), n.hostCache(), n.translation(), null))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("nic must not be null");
    assertThatThrownBy(() -> new Node(-1, n.memory(), n.hostCache(), n.translation(), n.nic()))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("id must be >= 0 but was -1");
    assertThatThrownBy(() -> new Node(3, n.memory(), n.hostCache(), n.translation(), n.nic()))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("nic must be node 3's but was node 2's");
    assertThat(new Node(2, n.memory(), n.hostCache(), n.translation(), n.nic())).isEqualTo(n);
  }
}
