package io.github.ariesmodel.traces;

/**
 * The kinds of MPI call the format-neutral trace model represents, whatever format recorded them.
 *
 * <p>Each kind belongs to one {@link Family}, which says which {@link TraceCall} record carries it. Calls a format
 * records but this model leaves out (datatype construction, attribute queries, MPI-IO, window attributes and names,
 * ...) are not kinds: they are counted by name in {@link RankCoverage#unmodelled()}. One-sided communication is in the
 * model: the window calls that create, free and synchronise a window ({@link Family#WINDOW}) and the puts, gets and
 * accumulates that move data through it ({@link Family#ONE_SIDED}).
 */
public enum CallKind {
  /** {@code MPI_Init} or {@code MPI_Init_thread}. */
  INIT(Family.LIFECYCLE),
  /** {@code MPI_Finalize}. */
  FINALIZE(Family.LIFECYCLE),
  /** Blocking send ({@code MPI_Send}; DUMPI's {@code MPI_Rsend} too). */
  SEND(Family.POINT_TO_POINT),
  /** Nonblocking send ({@code MPI_Isend}, and its ready variant). */
  ISEND(Family.POINT_TO_POINT),
  /** Buffered-mode send ({@code MPI_Bsend}): copied into the attached buffer, it returns at once. */
  BSEND(Family.POINT_TO_POINT),
  /** Nonblocking buffered-mode send ({@code MPI_Ibsend}). */
  IBSEND(Family.POINT_TO_POINT),
  /** Blocking synchronous send ({@code MPI_Ssend}): completes once the receiver has matched it. */
  SSEND(Family.POINT_TO_POINT),
  /** Nonblocking synchronous send ({@code MPI_Issend}). */
  ISSEND(Family.POINT_TO_POINT),
  /** Blocking receive. */
  RECV(Family.POINT_TO_POINT),
  /** Nonblocking receive. */
  IRECV(Family.POINT_TO_POINT),
  /** Blocking probe for a matching message. */
  PROBE(Family.POINT_TO_POINT),
  /** Nonblocking probe. */
  IPROBE(Family.POINT_TO_POINT),
  /**
   * Creates a persistent standard-mode send ({@code MPI_Send_init}; DUMPI's {@code MPI_Rsend_init} too), started by
   * {@link #START} or {@link #STARTALL}.
   */
  SEND_INIT(Family.POINT_TO_POINT),
  /** Creates a persistent buffered-mode send ({@code MPI_Bsend_init}). */
  BSEND_INIT(Family.POINT_TO_POINT),
  /** Creates a persistent synchronous-mode send ({@code MPI_Ssend_init}). */
  SSEND_INIT(Family.POINT_TO_POINT),
  /** Creates a persistent receive ({@code MPI_Recv_init}). */
  RECV_INIT(Family.POINT_TO_POINT),
  /** {@code MPI_Sendrecv} (and {@code MPI_Sendrecv_replace}). */
  SENDRECV(Family.SEND_RECEIVE),
  /** Wait for one request. */
  WAIT(Family.COMPLETION),
  /** Wait for every request of a list. */
  WAITALL(Family.COMPLETION),
  /** Wait for any one request of a list. */
  WAITANY(Family.COMPLETION),
  /** Wait for at least one request of a list. */
  WAITSOME(Family.COMPLETION),
  /** Test one request. */
  TEST(Family.COMPLETION),
  /** Test every request of a list. */
  TESTALL(Family.COMPLETION),
  /** Test any request of a list. */
  TESTANY(Family.COMPLETION),
  /** Test some requests of a list. */
  TESTSOME(Family.COMPLETION),
  /** Starts one persistent request ({@code MPI_Start}). */
  START(Family.REQUEST),
  /** Starts persistent requests in order ({@code MPI_Startall}). */
  STARTALL(Family.REQUEST),
  /** Frees a request ({@code MPI_Request_free}): a persistent one, or an active one left to complete unobserved. */
  REQUEST_FREE(Family.REQUEST),
  /** Attaches the buffer buffered sends use ({@code MPI_Buffer_attach}). */
  BUFFER_ATTACH(Family.BUFFER),
  /** Detaches it ({@code MPI_Buffer_detach}), once the buffered sends from it have gone. */
  BUFFER_DETACH(Family.BUFFER),
  /** Cancels a request ({@code MPI_Cancel}): a receive not yet matched is taken back; it must still be completed. */
  CANCEL(Family.REQUEST),
  /** {@code MPI_Barrier}. */
  BARRIER(Family.COLLECTIVE),
  /** {@code MPI_Bcast}. */
  BCAST(Family.COLLECTIVE),
  /** {@code MPI_Reduce}. */
  REDUCE(Family.COLLECTIVE),
  /** {@code MPI_Allreduce}. */
  ALLREDUCE(Family.COLLECTIVE),
  /** {@code MPI_Gather}. */
  GATHER(Family.COLLECTIVE),
  /** {@code MPI_Gatherv}. */
  GATHERV(Family.COLLECTIVE),
  /** {@code MPI_Scatter}. */
  SCATTER(Family.COLLECTIVE),
  /** {@code MPI_Scatterv}. */
  SCATTERV(Family.COLLECTIVE),
  /** {@code MPI_Allgather}. */
  ALLGATHER(Family.COLLECTIVE),
  /** {@code MPI_Allgatherv}. */
  ALLGATHERV(Family.COLLECTIVE),
  /** {@code MPI_Alltoall}. */
  ALLTOALL(Family.COLLECTIVE),
  /** {@code MPI_Alltoallv}. */
  ALLTOALLV(Family.COLLECTIVE),
  /** {@code MPI_Reduce_scatter}. */
  REDUCE_SCATTER(Family.COLLECTIVE),
  /** {@code MPI_Scan}. */
  SCAN(Family.COLLECTIVE),
  /** {@code MPI_Exscan}. */
  EXSCAN(Family.COLLECTIVE),
  /** {@code MPI_Comm_split}. */
  COMM_SPLIT(Family.COMMUNICATOR),
  /** {@code MPI_Comm_dup}. */
  COMM_DUP(Family.COMMUNICATOR),
  /** {@code MPI_Comm_free}. */
  COMM_FREE(Family.COMMUNICATOR),
  /** {@code MPI_Cart_create}: a communicator with a Cartesian grid over the old one's first ranks. */
  CART_CREATE(Family.TOPOLOGY),
  /** {@code MPI_Cart_sub}: the sub-grids of a Cartesian communicator that keep some of its dimensions. */
  CART_SUB(Family.TOPOLOGY),
  /** {@code MPI_Graph_create}: a communicator with a graph over the old one's first ranks. */
  GRAPH_CREATE(Family.TOPOLOGY),
  /** {@code MPI_Comm_group}: the group of a communicator's processes. */
  COMM_GROUP(Family.GROUP),
  /** {@code MPI_Group_incl}: the members of a group at the ranks given, in that order. */
  GROUP_INCL(Family.GROUP),
  /** {@code MPI_Group_excl}: a group without the members at the ranks given. */
  GROUP_EXCL(Family.GROUP),
  /** {@code MPI_Group_union}. */
  GROUP_UNION(Family.GROUP),
  /** {@code MPI_Group_intersection}. */
  GROUP_INTERSECTION(Family.GROUP),
  /** {@code MPI_Group_difference}. */
  GROUP_DIFFERENCE(Family.GROUP),
  /** {@code MPI_Group_free}. */
  GROUP_FREE(Family.GROUP),
  /** {@code MPI_Comm_create}: a communicator of a group's members, in the group's order. */
  COMM_CREATE(Family.GROUP),
  /** {@code MPI_Win_create}: a window over a local buffer, collective over a communicator. */
  WIN_CREATE(Family.WINDOW),
  /** {@code MPI_Win_free}. */
  WIN_FREE(Family.WINDOW),
  /** {@code MPI_Win_fence}: ends one active-target epoch of every process of the window and opens the next. */
  WIN_FENCE(Family.WINDOW),
  /** {@code MPI_Win_lock}: opens a passive-target access epoch to one target, shared or exclusive. */
  WIN_LOCK(Family.WINDOW),
  /** {@code MPI_Win_unlock}: ends it, once the calls made in it have completed at the target. */
  WIN_UNLOCK(Family.WINDOW),
  /** {@code MPI_Win_post}: opens an exposure epoch to the origins of a group. */
  WIN_POST(Family.WINDOW),
  /** {@code MPI_Win_start}: opens an access epoch to the targets of a group. */
  WIN_START(Family.WINDOW),
  /** {@code MPI_Win_complete}: ends the access epoch {@code MPI_Win_start} opened. */
  WIN_COMPLETE(Family.WINDOW),
  /** {@code MPI_Win_wait}: ends the exposure epoch {@code MPI_Win_post} opened, once its origins have completed. */
  WIN_WAIT(Family.WINDOW),
  /** {@code MPI_Win_test}: the nonblocking {@code MPI_Win_wait}, with whether the epoch ended. */
  WIN_TEST(Family.WINDOW),
  /** {@code MPI_Win_get_group}: the group of the window's communicator, for a post's or a start's group. */
  WIN_GET_GROUP(Family.WINDOW),
  /** {@code MPI_Put}: writes into a target's window. */
  PUT(Family.ONE_SIDED),
  /** {@code MPI_Get}: reads from a target's window. */
  GET(Family.ONE_SIDED),
  /** {@code MPI_Accumulate}: combines data into a target's window with a reduction operation. */
  ACCUMULATE(Family.ONE_SIDED),
  /** Local computation of a number of floating-point operations (SimGrid's {@code compute}). */
  COMPUTE(Family.LOCAL),
  /** Local idle time of a given duration (SimGrid's {@code sleep}). */
  SLEEP(Family.LOCAL);

  /** Which {@link TraceCall} record type carries a kind. */
  public enum Family {
    /** {@link TraceCall.Lifecycle}. */
    LIFECYCLE,
    /** {@link TraceCall.PointToPoint}. */
    POINT_TO_POINT,
    /** {@link TraceCall.SendReceive}. */
    SEND_RECEIVE,
    /** {@link TraceCall.Completion}. */
    COMPLETION,
    /** {@link TraceCall.RequestCall}. */
    REQUEST,
    /** {@link TraceCall.BufferCall}. */
    BUFFER,
    /** {@link TraceCall.Collective}. */
    COLLECTIVE,
    /** {@link TraceCall.CommunicatorCall}. */
    COMMUNICATOR,
    /** {@link TraceCall.Topology}. */
    TOPOLOGY,
    /** {@link TraceCall.GroupCall}. */
    GROUP,
    /** {@link TraceCall.WindowCall}. */
    WINDOW,
    /** {@link TraceCall.OneSided}. */
    ONE_SIDED,
    /** {@link TraceCall.Local}. */
    LOCAL
  }

  private final Family family;

  CallKind(Family family) {
    this.family = family;
  }

  /** The record type that carries this kind. */
  public Family family() {
    return family;
  }
}
