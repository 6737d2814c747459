package io.github.ariesmodel.system.mpi;

import io.github.ariesmodel.core.CompletionEvent;
import io.github.ariesmodel.core.CompletionType;
import io.github.ariesmodel.nic.Post;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.Node;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The MPI layer's share of one node's NIC: it hands out post ids, remembers which rank's handler waits for each
 * post's source event, and, as the NIC's single completion listener, tells the ranks of the node when the NIC has
 * written into their completion queues. Each rank has two CQs in host memory: an rx ring for the remote events its
 * registration asks for and a tx ring for the source events of its own posts ({@link Rank}); the rank takes them
 * itself ({@code GNI_CqGetEvent}) and finds a source event's handler by post id ({@code GNI_GetCompleted}'s
 * descriptor).
 */
final class NodeEndpoint {

  /** What a rank does when one of its posts completes; runs in the rank's process during progress. */
  abstract static class PendingPost {
    final Rank rank;
    CompletionEvent event;

    PendingPost(Rank rank) {
      this.rank = rank;
    }

    abstract void done();
  }

  private final Node node;
  private final List<Rank> ranks = new ArrayList<>();
  /**
   * The FMA descriptors this endpoint's ranks attached on the node's NIC, in rank order: one a rank, fewer when the
   * NIC ran out and the later ranks share these in turn.
   */
  private final List<Integer> descriptors = new ArrayList<>();
  private final Map<Long, PendingPost> pending = new HashMap<>();
  /**
   * This endpoint's number on its system ({@link AriesSystem#nextJobNumber()}, taken with
   * its first rank), the high bits of its post ids: the NIC's listener, which this endpoint takes as its job's run
   * starts, also sees the events of posts another job left in flight when its run failed (a SHMEM job's, which name
   * no CQ, or an earlier MPI job's, which name that job's rings), and their errors are not this job's. 0 until the
   * first rank is added.
   */
  private long number;
  private long nextPostId;
  /** Entries the ranks' rings had written or dropped as of the last event this endpoint saw ({@link #onEvent}). */
  private long ringEntriesSeen;

  NodeEndpoint(Node node) {
    this.node = node;
    listen();
  }

  /** Makes this endpoint the NIC's completion listener (a job takes its nodes' NICs as each run starts). */
  void listen() {
    node.nic().completionListener(this::onEvent);
    ringEntriesSeen = ringEntries(); // (another job may have had the listener since: its events are not counted here)
  }

  /** @return entries the ranks' two rings have written or dropped (overrun) so far */
  private long ringEntries() {
    long n = 0;
    for (Rank r : ranks) {
      n += r.txCq.writtenEvents() + r.txCq.droppedEvents() + r.rxCq.writtenEvents() + r.rxCq.droppedEvents();
    }
    return n;
  }

  Node node() {
    return node;
  }

  /**
   * Adds a rank of the node.
   *
   * @return the FMA descriptor the rank posts through: one of its own, attached on the node's NIC, as uGNI gives each
   *     process's communication domain a dedicated descriptor [S5, {@code gni_pub.h}; S1 p.19: "Each process is
   *     allocated its own FMA descriptor", at most 127 a NIC]. When the NIC has none free the rank shares one, as
   *     {@code GNI_CDM_MODE_FMA_SHARED} lets processes do (assumed: which one Cray MPICH shares is not modelled):
   *     those of the job's earlier ranks on the node in turn, or, when the job has none there (other jobs' processes
   *     hold all 127), the descriptor numbered by the rank's index on the node, as every rank did before stop 72. A
   *     node's first 127 ranks of a job alone on it so take 0 to 126 and the next share them from 0 again, as before.
   *     Until stop 70 every rank of a node posted on one CPU; until stop 72 a rank took its index on the node
   *     whatever another job held.
   */
  int add(Rank r) {
    int d = node.nic().tryAttachFmaDescriptor();
    boolean own = d >= 0;
    if (!own) {
      d = descriptors.isEmpty() ? ranks.size() % io.github.ariesmodel.nic.Nic.FMA_DESCRIPTORS
          : descriptors.get(ranks.size() % descriptors.size());
    }
    if (ranks.isEmpty()) {
      number = r.job.system().nextJobNumber();
      nextPostId = AriesSystem.firstPostId(number);
    }
    ranks.add(r);
    if (own) {
      descriptors.add(d);
    }
    return d;
  }

  /** @return the descriptors this endpoint's ranks attached that the NIC no longer has attached (detached outside) */
  List<Integer> descriptorsLost() {
    List<Integer> lost = new ArrayList<>();
    for (int d : descriptors) {
      if (!node.nic().fmaDescriptorAttached(d)) {
        lost.add(d);
      }
    }
    return lost;
  }

  /** Detaches every descriptor the ranks attached (a job that failed to build, or one closed). */
  void detachDescriptors() {
    for (int d : descriptors) {
      node.nic().detachFmaDescriptor(d);
    }
    descriptors.clear();
  }

  List<Rank> ranks() {
    return ranks;
  }

  /** Posts through a rank's FMA descriptor with a handler for its GLOBAL event (the post names the rank's tx ring). */
  void post(Post p, int descriptor, PendingPost handler) {
    pending.put(p.postId(), handler);
    node.nic().post(p, descriptor);
  }

  /**
   * Posts a collective-engine contribution through a rank's FMA descriptor with a handler for its GLOBAL event (the
   * post names the rank's tx ring).
   */
  void postCollective(io.github.ariesmodel.nic.CePost p, int descriptor, PendingPost handler) {
    pending.put(p.postId(), handler);
    node.nic().postCollective(p, descriptor);
  }

  /** Posts without waiting for its completion (a failure still reaches the CQ the post names: the rank's tx ring). */
  void postSilently(Post p, int descriptor) {
    node.nic().post(p, descriptor);
  }

  long nextPostId() {
    return nextPostId++;
  }

  /** @return whether an event is of a post of this endpoint's (a REMOTE event carries a request tag: never one) */
  private boolean ownPost(CompletionEvent e) {
    return e.type() != CompletionType.REMOTE && AriesSystem.postOfJob(e.postId(), number);
  }

  /** @return the handler waiting for a post's source event (removed), or null when none waits */
  PendingPost takePending(long postId) {
    return pending.remove(postId);
  }

  /**
   * The NIC's listener: it sees every event when its CQ entry is written (or dropped, the CQ overrun), and only tells
   * the ranks one of whose two completion queues holds something (or overran); each rank takes its entries in its own
   * progress. An error event of one of this endpoint's posts that no rank's ring took (its entry could not be written:
   * translating the ring faulted) fails every rank of the node; another job's (see {@link #number}) fails none: it is
   * not this job's transfer. Whether a ring took the event is whether the rings' entries written or dropped grew with
   * it (the NIC writes or drops an entry just before it tells the listener), not whether some ring holds entries: a
   * rank's ring holding entries not yet taken hid an error whose own entry was lost.
   */
  private void onEvent(CompletionEvent e) {
    for (Rank r : ranks) {
      r.completionQueueWritten();
    }
    long entries = ringEntries();
    boolean taken = entries != ringEntriesSeen;
    ringEntriesSeen = entries;
    if (!taken && e.isError() && ownPost(e)) {
      for (Rank r : ranks) {
        r.silentPostFailed(e);
      }
    }
  }
}
