package io.github.ariesmodel.core.sim;

import io.github.ariesmodel.core.spi.EventHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * A synthetic model for the partitioned engine's tests: groups pass tokens around. Each group owns a random stream
 * (seeded from the seed and the group id), a running hash of every event it handled (time and argument, in the order
 * it handled them) and a count. An event of a group hashes itself, sometimes schedules a leaf event of its own group
 * at the same time or 1 ps later (ties), and passes its token on: to its own group a few ps later, or to another
 * group at least the lookahead later. Every order difference changes some group's hash.
 */
final class ToyGroupModel {

  /** How a group schedules: its own events, and events of another group. */
  interface Port {
    long now();

    void local(long timePs, EventHandler handler, long arg);

    void into(int group, long timePs, EventHandler handler, long arg);
  }

  final int groups;
  final long lookaheadPs;
  final long endPs;
  final Port[] ports;
  final SplittableRandom[] random;
  final long[] hash;
  final long[] count;
  final EventHandler[] token;
  final EventHandler[] leaf;

  ToyGroupModel(int groups, long lookaheadPs, long endPs, long seed, Port[] ports) {
    this.groups = groups;
    this.lookaheadPs = lookaheadPs;
    this.endPs = endPs;
    this.ports = ports;
    random = new SplittableRandom[groups];
    hash = new long[groups];
    count = new long[groups];
    token = new EventHandler[groups];
    leaf = new EventHandler[groups];
    for (int g = 0; g < groups; g++) {
      random[g] = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + g);
      int group = g;
      token[g] = (now, ref, arg) -> onToken(group, now, arg);
      leaf[g] = (now, ref, arg) -> record(group, now, arg);
    }
  }

  /** Gives each group {@code tokens} tokens at small times (set-up, before running). */
  void start(int tokens) {
    for (int g = 0; g < groups; g++) {
      for (int k = 0; k < tokens; k++) {
        ports[g].local(random[g].nextInt(4), token[g], random[g].nextInt(1000));
      }
    }
  }

  private void record(int g, long now, long arg) {
    hash[g] = hash[g] * 1_000_003L + now * 31 + arg;
    count[g]++;
  }

  private void onToken(int g, long now, long arg) {
    record(g, now, arg);
    SplittableRandom r = random[g];
    if (r.nextInt(2) == 0) {
      ports[g].local(now + r.nextInt(2), leaf[g], r.nextInt(1000));
    }
    if (now >= endPs) {
      return;
    }
    if (groups > 1 && r.nextInt(4) == 0) {
      int target = r.nextInt(groups - 1);
      if (target >= g) {
        target++;
      }
      ports[g].into(target, now + lookaheadPs + r.nextInt((int) Math.min(3 * lookaheadPs, 1000)), token[target],
          r.nextInt(1000));
    } else {
      ports[g].local(now + r.nextInt(4) * 3, token[g], r.nextInt(1000));
    }
  }

  /** The outcome: every group's hash and count. */
  List<Long> outcome() {
    List<Long> out = new ArrayList<>();
    for (int g = 0; g < groups; g++) {
      out.add(hash[g]);
      out.add(count[g]);
    }
    return out;
  }

  /** The model on a partitioned engine. */
  static ToyGroupModel onEngine(PartitionedEngine engine, long endPs, long seed) {
    Port[] ports = new Port[engine.groupCount()];
    for (int g = 0; g < ports.length; g++) {
      GroupScheduler s = engine.group(g);
      ports[g] = new Port() {
        @Override
        public long now() {
          return s.now();
        }

        @Override
        public void local(long timePs, EventHandler handler, long arg) {
          s.scheduleAt(timePs, handler, null, arg);
        }

        @Override
        public void into(int group, long timePs, EventHandler handler, long arg) {
          s.scheduleInto(group, timePs, handler, null, arg);
        }
      };
    }
    return new ToyGroupModel(engine.groupCount(), engine.lookaheadPs(), endPs, seed, ports);
  }

  /**
   * The reference: one list of pending events, the (time, scheduling group, that group's counter) minimum taken
   * each step, written without any of the engine's machinery.
   */
  static final class Reference {
    record Pending(long time, int group, long counter, EventHandler handler, long arg) {}

    final PriorityQueue<Pending> queue = new PriorityQueue<>((a, b) -> a.time != b.time
        ? Long.compare(a.time, b.time) : a.group != b.group ? Integer.compare(a.group, b.group)
        : Long.compare(a.counter, b.counter));
    final long[] counters;
    long now;
    final ToyGroupModel model;

    Reference(int groups, long lookaheadPs, long endPs, long seed) {
      counters = new long[groups];
      Port[] ports = new Port[groups];
      for (int g = 0; g < groups; g++) {
        int group = g;
        ports[g] = new Port() {
          @Override
          public long now() {
            return now;
          }

          @Override
          public void local(long timePs, EventHandler handler, long arg) {
            queue.add(new Pending(timePs, group, counters[group]++, handler, arg));
          }

          @Override
          public void into(int target, long timePs, EventHandler handler, long arg) {
            queue.add(new Pending(timePs, group, counters[group]++, handler, arg));
          }
        };
      }
      model = new ToyGroupModel(groups, lookaheadPs, endPs, seed, ports);
    }

    long run() {
      long n = 0;
      while (!queue.isEmpty()) {
        Pending p = queue.poll();
        now = p.time;
        p.handler.onEvent(p.time, null, p.arg);
        n++;
      }
      return n;
    }
  }
}
