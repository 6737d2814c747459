package io.github.ariesmodel.system.mpi;

import io.github.ariesmodel.core.CompletionEvent;
import io.github.ariesmodel.core.CompletionType;
import io.github.ariesmodel.nic.Post;
import io.github.ariesmodel.system.Node;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The MPI layer's share of one node's NIC: it hands out post ids, remembers which rank's handler waits for each
 * post's completion, and routes the NIC's events (which it sees as the NIC's single completion listener) to the
 * ranks on the node: remote events by draining each rank's own completion queue, source events by post id.
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

  /** Posts with a handler for its GLOBAL event. */
  void post(Post p, PendingPost handler) {
    pending.put(p.postId(), handler);
    node.nic().post(p);
  }

  /** Posts without waiting for its completion. */
  void postSilently(Post p) {
    node.nic().post(p);
  }

  long nextPostId() {
    return nextPostId++;
  }

  private void onEvent(CompletionEvent e) {
    if (e.type() == CompletionType.REMOTE) {
      for (Rank r : ranks) {
        r.drainCompletionQueue();
      }
      return;
    }
    if (e.type() == CompletionType.LOCAL && !e.isError()) {
      return;
    }
    PendingPost p = pending.remove(e.postId());
    if (p == null) {
      if (e.isError()) {
        for (Rank r : ranks) {
          r.silentPostFailed(e);
        }
      }
      return;
    }
    p.event = e;
    p.rank.completed(p);
  }
}
