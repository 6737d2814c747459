package io.github.ariesmodel.network.spi;

/**
 * The set of (port, virtual channel) choices a routing algorithm offers for one packet at one router; a selection
 * step ({@link RoutingAlgorithm#select}) then picks one. Each candidate also carries a weight and a bias for
 * congestion-based selection (score = weight × congestion + bias, lowest wins).
 *
 * <p>A candidate either <em>keeps</em> the packet's route state ({@link #add(int, int)}, {@link #add(int, int, int,
 * int)}: a minimal packet stays minimal, a packet on its way to an intermediate keeps that intermediate) or
 * <em>commits</em> the packet to an intermediate ({@link #addNonMinimal}): choosing it makes the packet non-minimal
 * for good and gives it that intermediate until the fabric sees it reached ({@link DragonflyPaths#reached}), after
 * which {@link RouterView#intermediate()} reads -1 again. No candidate drops an intermediate the packet has not
 * reached, so a routing that forgets to repeat the intermediate at later hops cannot turn a non-minimal packet
 * minimal behind its own back.
 *
 * <p>One instance is reused for every decision (primitive arrays; adding allocates nothing). The fabric sizes its
 * sets for the topology ({@link #capacityFor}): at least {@link #CAPACITY}, and at least two candidates for every port
 * of a router, so a routing may offer each port once as minimal and once as non-minimal (UGAL at its source hop offers
 * every minimal port and every port toward its intermediate).
 */
public final class Candidates {

  /**
   * Capacity of a set made with {@link #Candidates()}, and the least the fabric gives a decision on any topology. A
   * topology with wide routers gets more ({@link #capacityFor}); a routing that needs to know reads {@link
   * #capacity()}.
   */
  public static final int CAPACITY = 64;

  /**
   * Most candidates any set may hold: 2^20 (assumed; far above twice the radix of any router the model builds, and
   * the five arrays of a set of this size take 20 MiB).
   */
  public static final int MAX_CAPACITY = 1 << 20;

  private static final int KEEP = -1;

  private final int capacity;
  private final int[] port;
  private final int[] vc;
  private final int[] weight;
  private final int[] bias;
  private final int[] intermediate;
  private int size;

  /** An empty set of {@link #CAPACITY} candidates. */
  public Candidates() {
    this(CAPACITY);
  }

  /**
   * An empty set.
   *
   * @param capacity most candidates it holds, 1 to {@link #MAX_CAPACITY}
   * @throws IllegalArgumentException when the capacity is outside that range
   */
  public Candidates(int capacity) {
    if (capacity < 1 || capacity > MAX_CAPACITY) {
      throw new IllegalArgumentException("capacity must be in [1, " + MAX_CAPACITY + "] but was " + capacity);
    }
    this.capacity = capacity;
    this.port = new int[capacity];
    this.vc = new int[capacity];
    this.weight = new int[capacity];
    this.bias = new int[capacity];
    this.intermediate = new int[capacity];
  }

  /**
   * The capacity the fabric gives a decision on a topology: {@link #CAPACITY}, or twice the larger of the radix and
   * {@link Topology#maxMinimalPorts()} when that is more (derived: a built-in routing offers at most every minimal port
   * toward the destination and every one toward an intermediate, each at most {@code maxMinimalPorts}; a user's
   * routing may offer every port once as minimal and once as non-minimal).
   *
   * @param topology the topology
   * @return the capacity
   * @throws IllegalArgumentException when that is more than {@link #MAX_CAPACITY}
   */
  public static int capacityFor(Topology topology) {
    if (topology == null) {
      throw new IllegalArgumentException("topology must not be null");
    }
    long need = 2L * Math.max(Math.max(0, topology.portCount()), Math.max(0, topology.maxMinimalPorts()));
    if (need > MAX_CAPACITY) {
      throw new IllegalArgumentException("topology portCount() and maxMinimalPorts() must be at most "
          + MAX_CAPACITY / 2 + " (routing candidates for each) but were " + topology.portCount() + " and "
          + topology.maxMinimalPorts());
    }
    return (int) Math.max(CAPACITY, need);
  }

  /** @return the most candidates this set holds */
  public int capacity() {
    return capacity;
  }

  /** Empties the set. */
  public void clear() {
    size = 0;
  }

  /**
   * Adds a candidate with weight 1 and bias 0 that keeps the packet's route state.
   *
   * @param outPort a network port of the router
   * @param virtualChannel the VC the packet will occupy downstream
   */
  public void add(int outPort, int virtualChannel) {
    put(outPort, virtualChannel, 1, 0, KEEP);
  }

  /**
   * Adds a candidate that keeps the packet's route state.
   *
   * @param outPort a network port of the router
   * @param virtualChannel the VC the packet will occupy downstream
   * @param weightFactor multiplies the port's congestion in the default selection
   * @param additiveBias added to the score in the default selection
   * @throws IllegalStateException when the set already holds {@link #capacity()} candidates
   */
  public void add(int outPort, int virtualChannel, int weightFactor, int additiveBias) {
    put(outPort, virtualChannel, weightFactor, additiveBias, KEEP);
  }

  /**
   * Adds a candidate that, if chosen, commits the packet to an intermediate: the packet counts as routed
   * non-minimally and {@link RouterView#intermediate()} gives this router at its next hops until it is reached.
   *
   * @param outPort a network port of the router
   * @param virtualChannel the VC the packet will occupy downstream
   * @param weightFactor multiplies the port's congestion in the default selection
   * @param additiveBias added to the score in the default selection
   * @param intermediateRouter the intermediate, ≥ 0 (see {@link DragonflyPaths#chooseIntermediate})
   * @throws IllegalArgumentException when the intermediate is negative
   * @throws IllegalStateException when the set already holds {@link #capacity()} candidates
   */
  public void addNonMinimal(
      int outPort, int virtualChannel, int weightFactor, int additiveBias, int intermediateRouter) {
    if (intermediateRouter < 0) {
      throw new IllegalArgumentException("intermediateRouter must be >= 0 but was " + intermediateRouter
          + " (use add(...) for a candidate that keeps the packet's route)");
    }
    put(outPort, virtualChannel, weightFactor, additiveBias, intermediateRouter);
  }

  private void put(int outPort, int virtualChannel, int weightFactor, int additiveBias, int intermediateRouter) {
    if (size == capacity) {
      throw new IllegalStateException("candidates must number at most " + capacity + " but one more was added");
    }
    port[size] = outPort;
    vc[size] = virtualChannel;
    weight[size] = weightFactor;
    bias[size] = additiveBias;
    intermediate[size] = intermediateRouter;
    size++;
  }

  /** @return number of candidates */
  public int size() {
    return size;
  }

  /** @param i index @return the candidate's port */
  public int port(int i) {
    return port[i];
  }

  /** @param i index @return the candidate's virtual channel */
  public int vc(int i) {
    return vc[i];
  }

  /** @param i index @return the candidate's weight */
  public int weight(int i) {
    return weight[i];
  }

  /** @param i index @return the candidate's bias */
  public int bias(int i) {
    return bias[i];
  }

  /**
   * @param i index
   * @return the intermediate the candidate commits the packet to, or -1 when it keeps the packet's route state
   */
  public int intermediate(int i) {
    return intermediate[i];
  }
}
