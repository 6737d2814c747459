package io.github.ariesmodel.network;

/**
 * One direction of a cable and the time it has spent sending: what {@link RouterFabric#busiestLinks} reports.
 *
 * @param router the router it leaves
 * @param port its output port there
 * @param linkClass the cable's class (0 rank-1, 1 rank-2, 2 rank-3 on Aries)
 * @param farRouter the router it reaches
 * @param farPort the input port it reaches there
 * @param busyPs picoseconds spent serializing packets so far, packet headers included
 */
public record LinkLoad(int router, int port, int linkClass, int farRouter, int farPort, long busyPs) {}
