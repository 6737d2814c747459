package io.github.ariesmodel.system;

import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.spi.Fabric;
import io.github.ariesmodel.core.spi.FabricEndpoint;

/**
 * A fabric that passes everything to another; tests override {@link #inject} to watch, refuse or fail packets. It
 * keeps the interface's default {@code attachOnDemand} (every node attached up front), as the tests' wrappers did; a
 * test that wants the inner fabric's on-demand attachment overrides it.
 */
public class DelegatingFabric implements Fabric {
  protected final Fabric inner;

  public DelegatingFabric(Fabric inner) {
    this.inner = inner;
  }

  @Override
  public int nodeCount() {
    return inner.nodeCount();
  }

  @Override
  public void attach(int nodeId, FabricEndpoint endpoint) {
    inner.attach(nodeId, endpoint);
  }

  @Override
  public boolean inject(Packet packet) {
    return inner.inject(packet);
  }
}
