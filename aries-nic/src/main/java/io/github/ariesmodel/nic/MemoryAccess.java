package io.github.ariesmodel.nic;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.spi.HostMemory;
import io.github.ariesmodel.core.spi.TranslationClient;
import java.util.Arrays;

/**
 * One memory access in translation, pooled by {@link AccessPool}: the range asked for, the physical parts it was
 * translated into (a range may straddle pages) and what its {@link AccessPurpose} needs afterwards (the request
 * served, the transaction, the data to land).
 */
final class MemoryAccess {
  TranslationClient client;
  int mdh;
  long offset;
  int length;
  AccessKind kind;
  int ptag;
  int pkey;
  int done;
  int parts;
  long[] pa = new long[2];
  int[] partLength = new int[2];
  Packet packet;
  Transaction tx;
  byte[] data;
  /** Room for a fetched AMO word to land from, so that landing one allocates nothing. */
  final byte[] word = new byte[8];
  long remoteStart;
  int tagWord;
  /**
   * The number of the translation this access waits for on the listener path (its {@code arg}), or 0 when it waits
   * for none: a translation port that completes one twice, or completes one never asked, is caught by it.
   */
  long awaiting;

  MemoryAccess with(Packet p) {
    this.packet = p;
    return this;
  }

  void addPart(long address, int n) {
    if (parts == pa.length) {
      pa = Arrays.copyOf(pa, parts * 2);
      partLength = Arrays.copyOf(partLength, parts * 2);
    }
    pa[parts] = address;
    partLength[parts] = n;
    parts++;
  }

  /** @return whether a translated part of this access lies in {@code [address, end)} */
  boolean overlaps(long address, long end) {
    for (int i = 0; i < parts; i++) {
      if (pa[i] < end && pa[i] + partLength[i] > address) {
        return true;
      }
    }
    return false;
  }

  void write(HostMemory m, byte[] src) {
    int at = 0;
    for (int i = 0; i < parts; i++) {
      m.write(pa[i], src, at, partLength[i]);
      at += partLength[i];
    }
  }

  void read(HostMemory m, byte[] dst) {
    int at = 0;
    for (int i = 0; i < parts; i++) {
      m.read(pa[i], dst, at, partLength[i]);
      at += partLength[i];
    }
  }
}
