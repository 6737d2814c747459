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
 * <p>One instance is reused for every decision (primitive arrays; adding allocates nothing).
 */
public final class Candidates {

  /** Most candidates one decision may offer. */
  public static final int CAPACITY = 64;

  private static final int KEEP = -1;

  private final int[] port = new int[CAPACITY];
  private final int[] vc = new int[CAPACITY];
  private final int[] weight = new int[CAPACITY];
  private final int[] bias = new int[CAPACITY];
  private final int[] intermediate = new int[CAPACITY];
  private int size;

  /** An empty set. */
  public Candidates() {}

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
   * @throws IllegalStateException when the set already holds {@link #CAPACITY} candidates
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
   * @throws IllegalStateException when the set already holds {@link #CAPACITY} candidates
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
    if (size == CAPACITY) {
      throw new IllegalStateException("candidates must number at most " + CAPACITY + " but one more was added");
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
