package io.github.ariesmodel.system.mpi;

import io.github.ariesmodel.core.CompletionEvent;
import io.github.ariesmodel.nic.Post;
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
  private final Map<Long, PendingPost> pending = new HashMap<>();
  private long nextPostId = 1;

  NodeEndpoint(Node node) {
    this.node = node;
    listen();
  }

  /** Makes this endpoint the NIC's completion listener (a job takes its nodes' NICs as each run starts). */
  void listen() {
    node.nic().completionListener(this::onEvent);
  }

  Node node() {
    return node;
  }

  void add(Rank r) {
    ranks.add(r);
  }

  List<Rank> ranks() {
    return ranks;
  }

  /** Posts with a handler for its GLOBAL event (the post names the rank's tx ring). */
  void post(Post p, PendingPost handler) {
    pending.put(p.postId(), handler);
    node.nic().post(p);
  }

  /** Posts a collective-engine contribution with a handler for its GLOBAL event (the post names the rank's tx ring). */
  void postCollective(io.github.ariesmodel.nic.CePost p, PendingPost handler) {
    pending.put(p.postId(), handler);
    node.nic().postCollective(p);
  }

  /** Posts without waiting for its completion (a failure still reaches the CQ the post names: the rank's tx ring). */
  void postSilently(Post p) {
    node.nic().post(p);
  }

  long nextPostId() {
    return nextPostId++;
  }

  /** @return the handler waiting for a post's source event (removed), or null when none waits */
  PendingPost takePending(long postId) {
    return pending.remove(postId);
  }

  /**
   * The NIC's listener: it sees every event when its CQ entry is written (or dropped, the CQ overrun), and only tells
   * the ranks one of whose two completion queues holds something (or overran); each rank takes its entries in its own progress. An error
   * event that no rank's CQ took (a post naming no CQ) fails every rank of the node.
   */
  private void onEvent(CompletionEvent e) {
    boolean taken = false;
    for (Rank r : ranks) {
      taken |= r.completionQueueWritten();
    }
    if (!taken && e.isError()) {
      for (Rank r : ranks) {
        r.silentPostFailed(e);
      }
    }
  }
}
