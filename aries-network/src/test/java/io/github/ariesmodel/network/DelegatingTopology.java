package io.github.ariesmodel.network;

import io.github.ariesmodel.network.spi.Topology;

/** A user's topology: every question passed to a built-in one, for tests to change one answer. */
class DelegatingTopology implements Topology {
  private final Topology t;

  DelegatingTopology(Topology t) {
    this.t = t;
  }

  @Override
  public int nodeCount() {
    return t.nodeCount();
  }

  @Override
  public int routerCount() {
    return t.routerCount();
  }

  @Override
  public int nodesPerRouter() {
    return t.nodesPerRouter();
  }

  @Override
  public int groupCount() {
    return t.groupCount();
  }

  @Override
  public int routersPerGroup() {
    return t.routersPerGroup();
  }

  @Override
  public int portCount() {
    return t.portCount();
  }

  @Override
  public int neighborRouter(int router, int port) {
    return t.neighborRouter(router, port);
  }

  @Override
  public int neighborPort(int router, int port) {
    return t.neighborPort(router, port);
  }

  @Override
  public int linkClass(int router, int port) {
    return t.linkClass(router, port);
  }

  @Override
  public int linkClassCount() {
    return t.linkClassCount();
  }

  @Override
  public String linkClassName(int linkClass) {
    return t.linkClassName(linkClass);
  }

  @Override
  public double linkBandwidth(int linkClass) {
    return t.linkBandwidth(linkClass);
  }

  @Override
  public long linkLatencyPs(int linkClass) {
    return t.linkLatencyPs(linkClass);
  }

  @Override
  public double injectionBandwidth() {
    return t.injectionBandwidth();
  }

  @Override
  public int minimalPorts(int router, int target, int hash, int[] out) {
    return t.minimalPorts(router, target, hash, out);
  }

  @Override
  public int maxMinimalPorts() {
    return t.maxMinimalPorts();
  }

  @Override
  public int minimalHops(int router, int target) {
    return t.minimalHops(router, target);
  }

  @Override
  public int maxLocalHops() {
    return t.maxLocalHops();
  }

  @Override
  public String describe() {
    return "user's " + t.describe();
  }
}
