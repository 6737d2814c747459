package io.github.ariesmodel.system.mpi;

/**
 * One rank's view of an MPI-like job in simulated time: point-to-point messages with MPI's matching rules,
 * communicators and the common collectives, over the simulated Aries NIC. Calls block the way MPI's do, letting
 * simulated time pass; every call that waits also makes progress on everything else this rank has in flight (as
 * MPICH's progress engine does), and only then: a rank that computes makes no progress.
 *
 * <p>Buffers are Java byte arrays (lengths and counts in bytes) or, for reductions, {@code long[]} and
 * {@code double[]}. The bytes really travel: a send copies them into registered host memory of the sender's node,
 * the NIC moves them (FMA PUTs into the receiver's mailbox, GETs over FMA or the BTE), and the receiver copies them
 * out of its node's memory.
 *
 * <p>Matching follows the MPI standard: a receive matches the earliest arrived message of its communicator whose
 * source and tag it accepts ({@link #ANY_SOURCE}, {@link #ANY_TAG}), and an arriving message matches the earliest
 * posted receive that accepts it; messages from one sender on one communicator match in the order they were sent
 * (non-overtaking). Collectives must be called by every rank of the communicator in the same order.
 */
public interface Mpi {

  /** Wildcard source of a receive or probe ({@code MPI_ANY_SOURCE}). */
  int ANY_SOURCE = -1;
  /** Wildcard tag of a receive or probe ({@code MPI_ANY_TAG}). */
  int ANY_TAG = -1;
  /** The color by which {@link #split} leaves a rank out ({@code MPI_UNDEFINED}). */
  int UNDEFINED = -1;
  /**
   * Largest tag a message may carry ({@code MPI_TAG_UB}; MPI guarantees at least 32,767): 268,435,455 = 2^28 - 1,
   * MPICH 3.2 CH3's, whose {@code MPID_Init} sets {@code tag_ub} to {@code INT_MAX} ({@code mpid_init.c}) and whose
   * {@code MPIR_Init_thread} then shifts it right by 3 for the tag bits it keeps for itself ({@code initthread.c});
   * {@code MPIR_ERRTEST_SEND_TAG} refuses larger ones. Cray MPICH's value is assumed the same. Until stop 74 it was
   * {@code Integer.MAX_VALUE}, cited from nothing.
   */
  int TAG_UB = (Integer.MAX_VALUE >> 3);
  /**
   * Attached-buffer space a buffered send takes beyond its data ({@code MPI_BSEND_OVERHEAD}): 96 bytes, MPICH's value
   * on 64-bit systems (its configure sets it to the size of its bsend segment header; assumed for Cray MPICH).
   */
  int BSEND_OVERHEAD = 96;
  /** Assertion of a lock, post or start: no conflicting epoch exists ({@code MPI_MODE_NOCHECK}, MPICH's 1024). */
  int MODE_NOCHECK = 1024;
  /** Assertion of a fence or post: the local window was not stored to ({@code MPI_MODE_NOSTORE}, 2048). */
  int MODE_NOSTORE = 2048;
  /** Assertion of a fence or post: the window will not be put to ({@code MPI_MODE_NOPUT}, 4096). */
  int MODE_NOPUT = 4096;
  /** Assertion of a fence: no operations precede it; it only opens an epoch ({@code MPI_MODE_NOPRECEDE}, 8192). */
  int MODE_NOPRECEDE = 8192;
  /** Assertion of a fence: no operations follow it; it only closes an epoch ({@code MPI_MODE_NOSUCCEED}, 16384). */
  int MODE_NOSUCCEED = 16384;

  /** @return this rank in the world communicator */
  int rank();

  /** @return the number of ranks in the job */
  int size();

  /** @return the world communicator ({@code MPI_COMM_WORLD}) as this rank sees it */
  Communicator world();

  /** @return the node this rank runs on */
  int node();

  /** @return simulated time now, picoseconds */
  long now();

  /**
   * Lets simulated time pass for local computation (no MPI progress meanwhile).
   *
   * @param ps picoseconds, 0 to what is left from now of a program's clock (to
   *     {@link io.github.ariesmodel.system.AriesSystem#PROGRAM_CLOCK_END_PS})
   * @throws IllegalArgumentException when {@code ps} is negative or would end past that, naming the range; nothing
   *     changes
   */
  void compute(long ps);

  /**
   * Names where in the caller the next MPI calls come from, for error reports: a report of ranks that disagree on a
   * collective quotes each rank's site ({@code rank 2 (its call 14)}), and a receive tells the site its matched
   * message was sent from ({@link Request#senderCallSite}). A trace replay passes each trace call's number. Nothing
   * simulated depends on it.
   *
   * @param site a positive number the caller understands, or 0 for none (the default)
   */
  default void callSite(long site) {}

  // ---------------------------------------------------------------------------------------------- point to point

  /**
   * A blocking standard-mode send: returns when the buffer may be reused (at once for eager messages, after the
   * receiver's GET for rendezvous ones). To the rank itself it needs a matching receive posted before it, which takes
   * the data at once; without one it fails, as MPICH CH3's {@code MPID_Send} does ({@code MPI_ERR_OTHER},
   * {@code **dev|selfsenddeadlock}): {@link #isend} and {@link #sendrecv} to itself need no receive first.
   *
   * @param buf the data
   * @param offset first byte
   * @param length bytes, ≥ 0
   * @param dest rank in {@code comm}
   * @param tag 0 to {@link #TAG_UB}
   * @param comm the communicator
   * @throws IllegalStateException when {@code dest} is this rank and no receive posted before matches the message
   */
  void send(byte[] buf, int offset, int length, int dest, int tag, Communicator comm);

  /**
   * A blocking synchronous-mode send ({@code MPI_Ssend}): returns only once the receiver has matched the message. It
   * takes the protocol a standard send of its length would, as MPICH's CH3 does: a short, eager or on-node buffered
   * message carries a mark the receiver answers with an acknowledgement of the match, which completes the send
   * (MPICH's eager-sync); a rendezvous or single-copy message completes once its data has moved. To the rank itself it
   * needs a matching receive posted before it and fails without one, as {@link #send} does (MPICH CH3's
   * {@code MPID_Ssend} makes the same check).
   *
   * @param buf the data
   * @param offset first byte
   * @param length bytes, ≥ 0
   * @param dest rank in {@code comm}
   * @param tag 0 to {@link #TAG_UB}
   * @param comm the communicator
   * @throws IllegalStateException when {@code dest} is this rank and no receive posted before matches the message
   */
  void ssend(byte[] buf, int offset, int length, int dest, int tag, Communicator comm);

  /**
   * Starts a synchronous-mode send ({@code MPI_Issend}): the request completes once the receiver has matched it
   * ({@link #ssend}).
   *
   * @param buf the data
   * @param offset first byte
   * @param length bytes
   * @param dest rank in {@code comm}
   * @param tag tag
   * @param comm the communicator
   * @return the request
   */
  Request issend(byte[] buf, int offset, int length, int dest, int tag, Communicator comm);

  /**
   * Gives buffered sends their space ({@code MPI_Buffer_attach}). Only the size matters here: the data a buffered
   * send copies stands in the node's modelled memory as any send's does.
   *
   * @param bytes the buffer's size, ≥ 0 (each buffered send in flight takes its length plus {@link #BSEND_OVERHEAD})
   * @throws IllegalStateException when a buffer is already attached (MPI_ERR_BUFFER)
   */
  void bufferAttach(int bytes);

  /**
   * Takes the attached buffer back ({@code MPI_Buffer_detach}), first waiting until every buffered send made from it
   * has gone (its data no longer needed).
   *
   * @return the size that was attached
   * @throws IllegalStateException when no buffer is attached (MPI_ERR_BUFFER)
   */
  int bufferDetach();

  /**
   * A buffered-mode send ({@code MPI_Bsend}), as MPICH's {@code MPIR_Bsend_isend} makes it: the data is copied into
   * the attached buffer (at the host copy rate) and sent from there by a standard nonblocking send, and the call
   * returns at once, whatever the receiver does; the space comes back when that send completes (to the rank itself,
   * when a receive matches it, {@link #isend}). Too little free space (after taking back that of completed sends) is
   * MPI_ERR_BUFFER, as in MPICH.
   *
   * @param buf the data
   * @param offset first byte
   * @param length bytes, ≥ 0
   * @param dest rank in {@code comm}
   * @param tag 0 to {@link #TAG_UB}
   * @param comm the communicator
   * @throws IllegalStateException when the attached buffer has no room for it (MPI_ERR_BUFFER)
   */
  void bsend(byte[] buf, int offset, int length, int dest, int tag, Communicator comm);

  /**
   * A nonblocking buffered-mode send ({@code MPI_Ibsend}): {@link #bsend}, returning a request that is already
   * complete.
   *
   * @param buf the data
   * @param offset first byte
   * @param length bytes
   * @param dest rank in {@code comm}
   * @param tag tag
   * @param comm the communicator
   * @return the (complete) request
   */
  Request ibsend(byte[] buf, int offset, int length, int dest, int tag, Communicator comm);

  /**
   * Sends a whole array on the world communicator.
   *
   * @param buf the data
   * @param dest world rank
   * @param tag tag
   */
  default void send(byte[] buf, int dest, int tag) {
    send(buf, 0, buf.length, dest, tag, world());
  }

  /**
   * A blocking receive.
   *
   * @param buf where the data lands
   * @param offset first byte
   * @param capacity bytes available; a longer message is an error (MPI_ERR_TRUNCATE)
   * @param source rank in {@code comm} or {@link #ANY_SOURCE}
   * @param tag a tag or {@link #ANY_TAG}
   * @param comm the communicator
   * @return the source, tag and length of the message received
   */
  MpiStatus recv(byte[] buf, int offset, int capacity, int source, int tag, Communicator comm);

  /**
   * Receives into a whole array on the world communicator.
   *
   * @param buf where the data lands
   * @param source world rank or {@link #ANY_SOURCE}
   * @param tag a tag or {@link #ANY_TAG}
   * @return the status
   */
  default MpiStatus recv(byte[] buf, int source, int tag) {
    return recv(buf, 0, buf.length, source, tag, world());
  }

  /**
   * Starts a send ({@code MPI_Isend}); the buffer must not change until the request completes. A send to the rank
   * itself completes when a receive matches it, at once if one is posted, as MPICH CH3's {@code MPIDI_Isend_self}
   * makes it (no buffering).
   *
   * @param buf the data
   * @param offset first byte
   * @param length bytes
   * @param dest rank in {@code comm}
   * @param tag tag
   * @param comm the communicator
   * @return the request
   */
  Request isend(byte[] buf, int offset, int length, int dest, int tag, Communicator comm);

  /**
   * Starts a receive ({@code MPI_Irecv}).
   *
   * @param buf where the data lands
   * @param offset first byte
   * @param capacity bytes available
   * @param source rank in {@code comm} or {@link #ANY_SOURCE}
   * @param tag a tag or {@link #ANY_TAG}
   * @param comm the communicator
   * @return the request
   */
  Request irecv(byte[] buf, int offset, int capacity, int source, int tag, Communicator comm);

  /**
   * Waits until a request completes.
   *
   * @param request the request
   * @return its status (null for a send)
   */
  MpiStatus wait(Request request);

  /**
   * Waits until every request completes ({@code MPI_Waitall}).
   *
   * @param requests the requests; a null entry is {@code MPI_REQUEST_NULL} and is skipped
   * @throws IllegalArgumentException when one request is listed twice in the array (erroneous in MPI), naming both
   *     indices
   */
  void waitall(Request... requests);

  /**
   * Waits until one of the requests completes ({@code MPI_Waitany}). As MPI deallocates the request it returns, the
   * entry at the returned index is set to null in the array, so calling it again on the same array goes on to the
   * others (pass an array, not a list of arguments, to keep that).
   *
   * @param requests the requests; a null entry is {@code MPI_REQUEST_NULL} and is skipped
   * @return the index of the lowest-indexed completed request, or {@link #UNDEFINED} when every entry is null
   * @throws IllegalArgumentException when one request is listed twice in the array (erroneous in MPI), naming both
   *     indices
   */
  int waitany(Request... requests);

  /**
   * Makes progress once and tells whether the request has completed. A test that finds it incomplete after a pass
   * that timed nothing costs one empty poll ({@link MpiConfig#pollIntervalPs()}), so that a loop of tests lets
   * simulated time pass.
   *
   * @param request the request
   * @return whether it has completed
   */
  boolean test(Request request);

  /**
   * Makes progress once and tells whether every request has completed ({@code MPI_Testall}): one pass of the progress
   * engine for the whole array (testing each request alone would make one a request), and one empty poll when it
   * answers false after a pass that timed nothing, as {@link #test}.
   *
   * @param requests the requests; a null entry is {@code MPI_REQUEST_NULL} and counts as complete
   * @return whether all have completed (then each counts as waited for, as MPI deallocates them)
   * @throws IllegalArgumentException when one request is listed twice in the array (erroneous in MPI), naming both
   *     indices
   */
  boolean testall(Request... requests);

  /**
   * Makes progress once and returns a completed request ({@code MPI_Testany}); as {@link #waitany}, the entry
   * returned is set to null in the array. One empty poll when none is complete, as {@link #test}. An array with no
   * active request (every entry null) returns at once, flag true and index {@link #UNDEFINED}, with no progress pass
   * (MPI 3.1 §3.7.5; MPICH's {@code MPIR_Testany} returns before its progress call).
   *
   * @param requests the requests; a null entry is {@code MPI_REQUEST_NULL} and is skipped
   * @return MPI's flag and index: the lowest-indexed completed request; none completed yet (flag false); or no active
   *     request (flag true, index {@link #UNDEFINED})
   * @throws IllegalArgumentException when one request is listed twice in the array (erroneous in MPI), naming both
   *     indices
   */
  TestanyResult testany(Request... requests);

  /**
   * Makes progress once and returns every completed request ({@code MPI_Testsome}); their entries are set to null in
   * the array. One empty poll when none is complete, as {@link #test}. An array with no active request (every entry
   * null, or none) returns null at once, with no progress pass, as {@link #testany} (MPI 3.1 §3.7.5: outcount
   * {@code MPI_UNDEFINED}; MPICH's {@code MPIR_Testsome} returns before its progress call), so a loop until every
   * request is returned ends on null, which an empty array (none completed yet) does not.
   *
   * @param requests the requests; a null entry is {@code MPI_REQUEST_NULL} and is skipped
   * @return the indices of the completed requests in increasing order; empty when none has completed yet; null when
   *     there is no active request ({@code outcount == MPI_UNDEFINED})
   * @throws IllegalArgumentException when {@code requests} itself is null, or one request is listed twice in it
   *     (erroneous in MPI), naming both indices
   */
  int[] testsome(Request... requests);

  /**
   * Cancels a request ({@code MPI_Cancel}): a receive that no message has matched yet is taken back and completes at
   * once as cancelled ({@link Request#isCancelled()}, a null status), as MPICH's {@code MPID_Cancel_recv} takes it off
   * the posted queue. A send not yet complete (rendezvous, single-copy, or synchronous of a buffered protocol) sends
   * the receiver a cancellation request (a short message behind its message, as MPICH CH3's {@code
   * MPID_Cancel_send}); if the receiver still holds the message unmatched (a synchronous eager one with its data
   * landed), it takes it back and answers, and the send completes as cancelled; else it completes normally. A
   * synchronous send to the rank itself that no receive matched is taken back at once. Complete requests, and sends already complete (short, eager and on-node buffered ones, which complete as
   * they are sent), are left as they are (MPI lets a cancellation fail). Either way the request must still be
   * completed by a wait or a test.
   *
   * @param request a request this rank made
   */
  void cancel(Request request);

  // -------------------------------------------------------------------------------------------- persistent requests

  /**
   * Creates a persistent standard-mode send ({@code MPI_Send_init}; {@code MPI_Rsend_init} is a standard send
   * here): the arguments are checked now, as {@link #isend} checks them,
   * and each {@link #start} makes that isend. Nothing is sent and no simulated time passes.
   *
   * @param buf the data (read at each start)
   * @param offset first byte
   * @param length bytes, ≥ 0
   * @param dest rank in {@code comm}
   * @param tag 0 to {@link #TAG_UB}
   * @param comm the communicator
   * @return the inactive persistent request
   */
  PersistentRequest sendInit(byte[] buf, int offset, int length, int dest, int tag, Communicator comm);

  /**
   * Creates a persistent synchronous-mode send ({@code MPI_Ssend_init}): each {@link #start} makes an
   * {@link #issend}.
   *
   * @param buf the data (read at each start)
   * @param offset first byte
   * @param length bytes, ≥ 0
   * @param dest rank in {@code comm}
   * @param tag 0 to {@link #TAG_UB}
   * @param comm the communicator
   * @return the inactive persistent request
   */
  PersistentRequest ssendInit(byte[] buf, int offset, int length, int dest, int tag, Communicator comm);

  /**
   * Creates a persistent buffered-mode send ({@code MPI_Bsend_init}): each {@link #start} makes an {@link #ibsend}.
   *
   * @param buf the data (read at each start)
   * @param offset first byte
   * @param length bytes, ≥ 0
   * @param dest rank in {@code comm}
   * @param tag 0 to {@link #TAG_UB}
   * @param comm the communicator
   * @return the inactive persistent request
   */
  PersistentRequest bsendInit(byte[] buf, int offset, int length, int dest, int tag, Communicator comm);

  /**
   * Creates a persistent receive ({@code MPI_Recv_init}): each {@link #start} posts that {@link #irecv}.
   *
   * @param buf where each activation's data lands
   * @param offset first byte
   * @param capacity bytes available
   * @param source rank in {@code comm} or {@link #ANY_SOURCE}
   * @param tag a tag or {@link #ANY_TAG}
   * @param comm the communicator
   * @return the inactive persistent request
   */
  PersistentRequest recvInit(byte[] buf, int offset, int capacity, int source, int tag, Communicator comm);

  /**
   * Starts a persistent request ({@code MPI_Start}): makes its nonblocking call now, at that call's cost.
   *
   * @param request an inactive persistent request this rank made
   * @return the activation's request: complete it with a wait or a test before starting again
   */
  Request start(PersistentRequest request);

  /**
   * Starts persistent requests in order ({@code MPI_Startall}), each as {@link #start} would; every one is checked
   * before any starts.
   *
   * @param requests inactive persistent requests this rank made, none twice
   * @return the activations' requests, in the same order
   */
  Request[] startall(PersistentRequest... requests);

  /**
   * Sends and receives at once ({@code MPI_Sendrecv}): safe against the deadlock two blocking sends can cause.
   *
   * @param sendBuf data to send
   * @param sendOffset first byte
   * @param sendLength bytes
   * @param dest rank in {@code comm}
   * @param sendTag tag of the sent message
   * @param recvBuf where the received data lands
   * @param recvOffset first byte
   * @param recvCapacity bytes available
   * @param source rank in {@code comm} or {@link #ANY_SOURCE}
   * @param recvTag tag or {@link #ANY_TAG}
   * @param comm the communicator
   * @return the status of the receive
   */
  MpiStatus sendrecv(byte[] sendBuf, int sendOffset, int sendLength, int dest, int sendTag, byte[] recvBuf,
      int recvOffset, int recvCapacity, int source, int recvTag, Communicator comm);

  /**
   * Waits until a matching message has arrived, without receiving it ({@code MPI_Probe}).
   *
   * @param source rank in {@code comm} or {@link #ANY_SOURCE}
   * @param tag tag or {@link #ANY_TAG}
   * @param comm the communicator
   * @return the message's status; a receive with the same source and tag gets this message
   */
  MpiStatus probe(int source, int tag, Communicator comm);

  /**
   * Makes progress once and reports a matching arrived message, if any ({@code MPI_Iprobe}).
   *
   * @param source rank in {@code comm} or {@link #ANY_SOURCE}
   * @param tag tag or {@link #ANY_TAG}
   * @param comm the communicator
   * @return the status, or null when none has arrived
   */
  MpiStatus iprobe(int source, int tag, Communicator comm);

  // ---------------------------------------------------------------------------------------------- communicators

  /**
   * Splits a communicator by color ({@code MPI_Comm_split}); collective over {@code comm}.
   *
   * @param comm the communicator
   * @param color ranks with the same color share the new communicator; {@link #UNDEFINED} for none
   * @param key orders the ranks of the new communicator (ties by rank in {@code comm})
   * @return the new communicator, or null for {@link #UNDEFINED}
   */
  Communicator split(Communicator comm, int color, int key);

  /**
   * Duplicates a communicator: same ranks, separate message space ({@code MPI_Comm_dup}); collective.
   *
   * @param comm the communicator
   * @return the copy
   */
  Communicator dup(Communicator comm);

  // ---------------------------------------------------------------------------------------------- collectives

  /** @param comm the communicator; every rank waits until all have entered (dissemination algorithm) */
  void barrier(Communicator comm);

  /**
   * Broadcasts bytes from the root: binomial tree for short messages or few ranks, else a scatter followed by an
   * allgather, by recursive doubling for medium messages on power-of-two sizes, by a ring otherwise (MPICH's
   * selection).
   *
   * @param buf the data at the root, the destination elsewhere
   * @param offset first byte
   * @param length bytes (the same on every rank)
   * @param root the root's rank in {@code comm}
   * @param comm the communicator
   */
  void bcast(byte[] buf, int offset, int length, int root, Communicator comm);

  /**
   * Reduces element-wise to the root: binomial tree for short vectors, Rabenseifner's reduce-scatter and gather for
   * long ones.
   *
   * @param send this rank's contribution
   * @param recv the result at the root (length of {@code send}); ignored elsewhere (may be null)
   * @param op the operation
   * @param root the root's rank
   * @param comm the communicator
   */
  void reduce(long[] send, long[] recv, ReduceOp op, int root, Communicator comm);

  /**
   * As {@link #reduce(long[], long[], ReduceOp, int, Communicator)} on doubles.
   *
   * @param send contribution
   * @param recv result at the root
   * @param op SUM, PROD, MIN or MAX
   * @param root root
   * @param comm communicator
   */
  void reduce(double[] send, double[] recv, ReduceOp op, int root, Communicator comm);

  /**
   * Reduces element-wise to every rank: recursive doubling for short vectors, Rabenseifner (recursive-halving
   * reduce-scatter then recursive-doubling allgather) for long ones.
   *
   * @param send this rank's contribution
   * @param recv the result (length of {@code send})
   * @param op the operation
   * @param comm the communicator
   */
  void allreduce(long[] send, long[] recv, ReduceOp op, Communicator comm);

  /**
   * As {@link #allreduce(long[], long[], ReduceOp, Communicator)} on doubles.
   *
   * @param send contribution
   * @param recv result
   * @param op SUM, PROD, MIN or MAX
   * @param comm communicator
   */
  void allreduce(double[] send, double[] recv, ReduceOp op, Communicator comm);

  /**
   * Gathers equal blocks to the root (binomial tree).
   *
   * @param send this rank's block
   * @param recv at the root: size × block bytes in rank order; ignored elsewhere (may be null)
   * @param root root
   * @param comm communicator
   */
  void gather(byte[] send, byte[] recv, int root, Communicator comm);

  /**
   * Gathers blocks of different sizes to the root (linear, as MPICH).
   *
   * @param send this rank's block ({@code counts[rank]} bytes)
   * @param recv at the root: where the blocks land
   * @param counts bytes from each rank (significant at the root)
   * @param displs offset in {@code recv} of each rank's block (at the root)
   * @param root root
   * @param comm communicator
   */
  void gatherv(byte[] send, byte[] recv, int[] counts, int[] displs, int root, Communicator comm);

  /**
   * Scatters equal blocks from the root (binomial tree).
   *
   * @param send at the root: size × block bytes in rank order; ignored elsewhere (may be null)
   * @param recv this rank's block
   * @param root root
   * @param comm communicator
   */
  void scatter(byte[] send, byte[] recv, int root, Communicator comm);

  /**
   * Scatters blocks of different sizes from the root (linear).
   *
   * @param send at the root: the blocks
   * @param counts bytes to each rank (at the root)
   * @param displs offsets in {@code send} (at the root)
   * @param recv this rank's block
   * @param root root
   * @param comm communicator
   */
  void scatterv(byte[] send, int[] counts, int[] displs, byte[] recv, int root, Communicator comm);

  /**
   * Gathers equal blocks to every rank: recursive doubling (power-of-two sizes, medium totals), Bruck (short
   * totals), ring (long).
   *
   * @param send this rank's block
   * @param recv size × block bytes in rank order
   * @param comm communicator
   */
  void allgather(byte[] send, byte[] recv, Communicator comm);

  /**
   * Gathers blocks of different sizes to every rank (ring).
   *
   * @param send this rank's block
   * @param recv where the blocks land
   * @param counts bytes from each rank
   * @param displs offsets in {@code recv}
   * @param comm communicator
   */
  void allgatherv(byte[] send, byte[] recv, int[] counts, int[] displs, Communicator comm);

  /**
   * Exchanges equal blocks between every pair: Bruck for short blocks (≥ 8 ranks), all isends and irecvs at once
   * for medium ones, pairwise exchange for long ones.
   *
   * @param send size blocks, the i-th for rank i
   * @param recv size blocks, the i-th from rank i (same length as send)
   * @param comm communicator
   */
  void alltoall(byte[] send, byte[] recv, Communicator comm);

  /**
   * Exchanges blocks of different sizes between every pair (all isends and irecvs at once).
   *
   * @param send the outgoing blocks
   * @param sendCounts bytes to each rank
   * @param sendDispls offsets in {@code send}
   * @param recv where incoming blocks land
   * @param recvCounts bytes from each rank
   * @param recvDispls offsets in {@code recv}
   * @param comm communicator
   */
  void alltoallv(byte[] send, int[] sendCounts, int[] sendDispls, byte[] recv, int[] recvCounts,
      int[] recvDispls, Communicator comm);

  /**
   * Reduces element-wise and scatters the result ({@code MPI_Reduce_scatter}): recursive halving for short
   * vectors on power-of-two sizes, pairwise exchange otherwise.
   *
   * @param send the full vector (sum of counts elements)
   * @param recv this rank's part ({@code counts[rank]} elements)
   * @param counts elements of the result each rank gets
   * @param op operation
   * @param comm communicator
   */
  void reduceScatter(long[] send, long[] recv, int[] counts, ReduceOp op, Communicator comm);

  /**
   * As {@link #reduceScatter(long[], long[], int[], ReduceOp, Communicator)} on doubles.
   *
   * @param send full vector
   * @param recv this rank's part
   * @param counts elements per rank
   * @param op SUM, PROD, MIN or MAX
   * @param comm communicator
   */
  void reduceScatter(double[] send, double[] recv, int[] counts, ReduceOp op, Communicator comm);

  /**
   * Inclusive prefix reduction ({@code MPI_Scan}, recursive doubling): rank i gets op over ranks 0..i.
   *
   * @param send contribution
   * @param recv prefix result
   * @param op operation
   * @param comm communicator
   */
  void scan(long[] send, long[] recv, ReduceOp op, Communicator comm);

  /**
   * As {@link #scan(long[], long[], ReduceOp, Communicator)} on doubles.
   *
   * @param send contribution
   * @param recv prefix result
   * @param op SUM, PROD, MIN or MAX
   * @param comm communicator
   */
  void scan(double[] send, double[] recv, ReduceOp op, Communicator comm);

  // ------------------------------------------------------------------------------------------- one-sided

  /**
   * Makes a window over {@code comm} ({@code MPI_Win_create}); collective. Every rank gives its own memory, which the
   * others may then put to, get from and accumulate into; MPICH's CH3 protocol in software carries the operations
   * (docs/mpi.md, "One-sided communication"). The creation dups the communicator and allgathers each rank's size,
   * displacement unit and window handle, as MPICH does.
   *
   * @param base this rank's window memory (its length is the window's size here; may be empty)
   * @param displacementUnit bytes a target displacement counts, ≥ 1
   * @param comm communicator
   * @return the window
   */
  Window winCreate(byte[] base, int displacementUnit, Communicator comm);

  /**
   * Releases a window ({@code MPI_Win_free}); collective. Waits until no lock is held or queued on this rank's
   * window and no origin's operations are pending, then a barrier.
   *
   * @param win the window, outside any epoch but a fence's
   */
  void winFree(Window win);

  /**
   * Puts bytes into a target's window ({@code MPI_Put}). The operation may go at once or wait for the epoch's
   * synchronization; the origin buffer must stay unchanged until that synchronization completes it.
   *
   * @param origin the data
   * @param offset its first byte
   * @param length bytes
   * @param target rank in the window
   * @param targetDisp displacement in the target's displacement units
   * @param win the window, in an access epoch to {@code target}
   */
  void put(byte[] origin, int offset, int length, int target, long targetDisp, Window win);

  /**
   * Gets bytes from a target's window ({@code MPI_Get}); they are in the buffer once the epoch's synchronization has
   * completed.
   *
   * @param origin where the data goes
   * @param offset its first byte
   * @param length bytes
   * @param target rank in the window
   * @param targetDisp displacement in the target's displacement units
   * @param win the window, in an access epoch to {@code target}
   */
  void get(byte[] origin, int offset, int length, int target, long targetDisp, Window win);

  /**
   * Combines longs into a target's window ({@code MPI_Accumulate}): each target element becomes {@code target op
   * origin}. Accumulates of one origin to one target are applied in order.
   *
   * @param origin the operands
   * @param target rank in the window
   * @param targetDisp displacement in the target's displacement units
   * @param op operation
   * @param win the window, in an access epoch to {@code target}
   */
  void accumulate(long[] origin, int target, long targetDisp, ReduceOp op, Window win);

  /**
   * As {@link #accumulate(long[], int, long, ReduceOp, Window)} on doubles.
   *
   * @param origin the operands
   * @param target rank in the window
   * @param targetDisp displacement in the target's displacement units
   * @param op SUM, PROD, MIN or MAX
   * @param win the window
   */
  void accumulate(double[] origin, int target, long targetDisp, ReduceOp op, Window win);

  /**
   * Ends one fence epoch and opens the next ({@code MPI_Win_fence}); collective over the window. Returns once every
   * operation of the closing epoch is complete at its target and this rank's window has received every operation
   * aimed at it.
   *
   * @param assertion 0 or an OR of {@link #MODE_NOSTORE}, {@link #MODE_NOPUT}, {@link #MODE_NOPRECEDE},
   *     {@link #MODE_NOSUCCEED}
   * @param win the window
   */
  void winFence(int assertion, Window win);

  /**
   * Opens a passive-target epoch to one target ({@code MPI_Win_lock}). Returns at once for a remote target (the lock
   * request goes; operations wait for the grant), or once granted for the rank's own window.
   *
   * @param exclusive {@code MPI_LOCK_EXCLUSIVE} (true) or {@code MPI_LOCK_SHARED} (false)
   * @param target rank in the window
   * @param assertion 0 or {@link #MODE_NOCHECK}
   * @param win the window
   */
  void winLock(boolean exclusive, int target, int assertion, Window win);

  /**
   * Ends the passive-target epoch to a target ({@code MPI_Win_unlock}): its operations complete there and the lock is
   * released.
   *
   * @param target rank in the window, locked by this rank
   * @param win the window
   */
  void winUnlock(int target, Window win);

  /**
   * Completes this rank's operations to a locked target, at the target, without ending the epoch
   * ({@code MPI_Win_flush}).
   *
   * @param target rank in the window, locked by this rank
   * @param win the window
   */
  void winFlush(int target, Window win);

  /**
   * Completes this rank's operations to a locked target locally: sent, and their buffers free again
   * ({@code MPI_Win_flush_local}); not necessarily done at the target.
   *
   * @param target rank in the window, locked by this rank
   * @param win the window
   */
  void winFlushLocal(int target, Window win);

  /**
   * Opens a passive-target epoch to every rank of the window ({@code MPI_Win_lock_all}), shared: the rank's own
   * window is locked at once, each other target when the first operation to it is made.
   *
   * @param assertion 0 or {@link #MODE_NOCHECK}
   * @param win the window
   */
  void winLockAll(int assertion, Window win);

  /**
   * Ends the epoch {@link #winLockAll} opened ({@code MPI_Win_unlock_all}): every target's operations complete there
   * and its lock is released.
   *
   * @param win the window
   */
  void winUnlockAll(Window win);

  /**
   * {@link #winFlush} to every target of this rank's passive-target epochs ({@code MPI_Win_flush_all}).
   *
   * @param win the window
   */
  void winFlushAll(Window win);

  /**
   * {@link #winFlushLocal} to every target of this rank's passive-target epochs ({@code MPI_Win_flush_local_all}).
   *
   * @param win the window
   */
  void winFlushLocalAll(Window win);

  /**
   * Opens an exposure epoch to the origins of a group ({@code MPI_Win_post}): each is told with an empty message.
   *
   * @param group ranks in the window
   * @param assertion 0 or an OR of {@link #MODE_NOCHECK}, {@link #MODE_NOSTORE}, {@link #MODE_NOPUT}
   * @param win the window
   */
  void winPost(int[] group, int assertion, Window win);

  /**
   * Opens an access epoch to the targets of a group ({@code MPI_Win_start}); operations go once every target has
   * posted.
   *
   * @param group ranks in the window
   * @param assertion 0 or {@link #MODE_NOCHECK}
   * @param win the window
   */
  void winStart(int[] group, int assertion, Window win);

  /**
   * Ends the access epoch {@link #winStart} opened ({@code MPI_Win_complete}): its operations are sent and complete
   * locally, and each target is told.
   *
   * @param win the window
   */
  void winComplete(Window win);

  /**
   * Ends the exposure epoch {@link #winPost} opened, once every origin of its group has completed
   * ({@code MPI_Win_wait}).
   *
   * @param win the window
   */
  void winWait(Window win);

  /**
   * As {@link #winWait} without blocking ({@code MPI_Win_test}): makes progress and ends the epoch if every origin
   * has completed.
   *
   * @param win the window
   * @return whether the exposure epoch has ended
   */
  boolean winTest(Window win);
}
