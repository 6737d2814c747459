package io.github.ariesmodel.network.spi;

/**
 * The set of (port, virtual channel) choices a routing algorithm offers for one packet at one router; a selection
 * step ({@link RoutingAlgorithm#select}) then picks one. Each candidate also carries a weight and a bias for
 * congestion-based selection (score = weight × congestion + bias, lowest wins) and the intermediate the packet
 * commits to if the candidate is chosen (-1 for none: a minimal or phase-two choice).
 *
 * <p>One instance is reused for every decision (primitive arrays; adding allocates nothing).
 */
public final class Candidates {

  /** Most candidates one decision may offer. */
  public static final int CAPACITY = 64;

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
   * Adds a candidate with weight 1, bias 0 and no intermediate.
   *
   * @param outPort a network port of the router
   * @param virtualChannel the VC the packet will occupy downstream
   */
  public void add(int outPort, int virtualChannel) {
    add(outPort, virtualChannel, 1, 0, -1);
  }

  /**
   * Adds a candidate.
   *
   * @param outPort a network port of the router
   * @param virtualChannel the VC the packet will occupy downstream
   * @param weightFactor multiplies the port's congestion in the default selection
   * @param additiveBias added to the score in the default selection
   * @param intermediateRouter the packet's intermediate if chosen, or -1
   * @throws IllegalStateException when the set already holds {@link #CAPACITY} candidates
   */
  public void add(int outPort, int virtualChannel, int weightFactor, int additiveBias, int intermediateRouter) {
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

  /** @param i index @return the candidate's intermediate router, or -1 */
  public int intermediate(int i) {
    return intermediate[i];
  }
}
