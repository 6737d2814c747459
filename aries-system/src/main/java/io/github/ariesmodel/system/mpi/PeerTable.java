package io.github.ariesmodel.system.mpi;

import java.util.Arrays;

/**
 * A rank's mailbox state per peer: the next sequence number it sends and expects, the credits the peer returned and
 * those it owes the peer. Only peers it has exchanged messages with (or polled) have an entry, so a job of N ranks keeps
 * what its ranks use, not N × N entries: a rank of a halo exchange or a recursive-doubling collective talks to a few
 * dozen peers, and four arrays of the world's size per rank were 470 MB in a 4,096-rank replay (stop 30). An entry is
 * found through an open-addressing table; the state lives in arrays indexed by the entry's number, which stays fixed.
 */
final class PeerTable {
  /** Open-addressing keys: peer world rank + 1, 0 for empty. */
  private int[] keys = new int[16];
  /** The entry number of each key. */
  private int[] entries = new int[16];
  private int count;

  /** Next sequence number to send to the peer (from 1). */
  long[] sendSeq = new long[8];
  /** Credits the peer has returned (slots of its mailbox for this rank it has emptied). */
  long[] creditsBack = new long[8];
  /** Next sequence number expected from the peer (from 1). */
  long[] recvSeq = new long[8];
  /** Slots of this rank's mailbox for the peer emptied but not yet credited back. */
  int[] creditsOwed = new int[8];

  /** @return the peer's entry number, made on first use (sequence numbers from 1, no credits) */
  int of(int peer) {
    int key = peer + 1;
    int mask = keys.length - 1;
    int i = (key * 0x9E3779B9 >>> 8) & mask;
    while (true) {
      int k = keys[i];
      if (k == key) {
        return entries[i];
      }
      if (k == 0) {
        break;
      }
      i = (i + 1) & mask;
    }
    int e = count++;
    if (e == sendSeq.length) {
      int n = e * 2;
      sendSeq = Arrays.copyOf(sendSeq, n);
      creditsBack = Arrays.copyOf(creditsBack, n);
      recvSeq = Arrays.copyOf(recvSeq, n);
      creditsOwed = Arrays.copyOf(creditsOwed, n);
    }
    sendSeq[e] = 1;
    recvSeq[e] = 1;
    keys[i] = key;
    entries[i] = e;
    if (count * 4 > keys.length * 3) {
      rehash();
    }
    return e;
  }

  /** @return peers with an entry */
  int size() {
    return count;
  }

  private void rehash() {
    int[] oldKeys = keys;
    int[] oldEntries = entries;
    keys = new int[oldKeys.length * 2];
    entries = new int[oldKeys.length * 2];
    int mask = keys.length - 1;
    for (int j = 0; j < oldKeys.length; j++) {
      int key = oldKeys[j];
      if (key != 0) {
        int i = (key * 0x9E3779B9 >>> 8) & mask;
        while (keys[i] != 0) {
          i = (i + 1) & mask;
        }
        keys[i] = key;
        entries[i] = oldEntries[j];
      }
    }
  }
}
