package io.github.ariesmodel.traces.dumpi;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes small DUMPI rank files for tests, byte by byte, following the writers in sst-dumpi's
 * {@code dumpi/common/io.c} and {@code dumpiio.c} directly (each test spells out a record's fields in the order the
 * matching {@code dumpi_write_*} function puts them), so the reader's layout table is checked against an independent
 * transcription rather than against itself.
 */
final class DumpiBinBuilder {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final DataOutputStream out = new DataOutputStream(bytes);
  private final Map<Integer, int[]> footer = new TreeMap<>();
  private final int[] version;
  private int[] sizes = new int[0];

  DumpiBinBuilder(int major, int minor, int sub, int wallOffset) {
    this(major, minor, sub, 0, wallOffset);
  }

  DumpiBinBuilder(int major, int minor, int sub, int cpuOffset, int wallOffset) {
    version = new int[] {major, minor, sub};
    i64(DumpiRankReader.HEAD_MAGIC);
    i32(cpuOffset);
    i32(wallOffset);
  }

  DumpiBinBuilder sizes(int... table) {
    sizes = table.clone();
    return this;
  }

  /** Footer counts for a function id: calls made, calls not recorded. */
  DumpiBinBuilder footer(int id, int calls, int ignored) {
    footer.put(id, new int[] {calls, ignored});
    return this;
  }

  /** Starts a record: label, config mask, thread id (mask 0x40 is always set by libdumpi), wall times if 0x08. */
  DumpiBinBuilder record(int label, int mask, int startSec, int startNs, int stopSec, int stopNs) {
    u16(label);
    u8(mask);
    if ((mask & 0x40) != 0) {
      u16(0);
    }
    if ((mask & 0x04) != 0) {
      u16(0);
      i32(0);
      u16(0);
      i32(0);
    }
    if ((mask & 0x08) != 0) {
      u16(startSec);
      i32(startNs);
      u16(stopSec);
      i32(stopNs);
    }
    return this;
  }

  /**
   * Starts a record as {@link #record} does, with the times given as its CPU times (mask 0x04; its wall times, if
   * 0x08, are zero).
   */
  DumpiBinBuilder cpuRecord(int label, int mask, int startSec, int startNs, int stopSec, int stopNs) {
    u16(label);
    u8(mask);
    if ((mask & 0x40) != 0) {
      u16(0);
    }
    if ((mask & 0x04) != 0) {
      u16(startSec);
      i32(startNs);
      u16(stopSec);
      i32(stopNs);
    }
    if ((mask & 0x08) != 0) {
      u16(0);
      i32(0);
      u16(0);
      i32(0);
    }
    return this;
  }

  DumpiBinBuilder u8(int v) {
    try {
      out.writeByte(v);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return this;
  }

  DumpiBinBuilder u16(int v) {
    try {
      out.writeShort(v);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return this;
  }

  DumpiBinBuilder i32(int v) {
    try {
      out.writeInt(v);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return this;
  }

  DumpiBinBuilder i64(long v) {
    try {
      out.writeLong(v);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return this;
  }

  /** {@code put32arr}: length then values. */
  DumpiBinBuilder ints(int... values) {
    i32(values.length);
    for (int v : values) {
      i32(v);
    }
    return this;
  }

  /** {@code put_statuses} for one status: count 1, bytes, source, cancelled, error, tag (from 0.6.3). */
  DumpiBinBuilder status(int bytesReceived, int source, int tag) {
    i32(1);
    i32(bytesReceived);
    i32(source);
    u8(0);
    u8(0);
    i32(tag);
    return this;
  }

  DumpiBinBuilder string(String s) {
    byte[] b = s.getBytes(StandardCharsets.US_ASCII);
    u16(b.length);
    bytes.write(b, 0, b.length);
    return this;
  }

  /** {@code putchararr}: int32 length then the characters. */
  DumpiBinBuilder chars(String s) {
    byte[] b = s.getBytes(StandardCharsets.US_ASCII);
    i32(b.length);
    bytes.write(b, 0, b.length);
    return this;
  }

  /** Ends the stream, writes header, footer, size table and index; returns the file's bytes. */
  byte[] build() {
    u16(293); // DUMPI_END_OF_STREAM, written by dumpi_write_header
    long header = bytes.size();
    u8(version[0]);
    u8(version[1]);
    u8(version[2]);
    i64(1_393_887_300L);
    string("host");
    string("user");
    ints(); // mesh coordinates
    long footerAt = bytes.size();
    i64(DumpiRankReader.FOOT_MAGIC);
    for (int slot = 0; slot < DumpiFunction.FOOTER_SLOTS; slot++) {
      i32(footer.getOrDefault(slot, new int[] {0, 0})[0]);
    }
    for (int slot = 0; slot < DumpiFunction.FOOTER_SLOTS; slot++) {
      i32(footer.getOrDefault(slot, new int[] {0, 0})[1]);
    }
    i32(0); // keyval record: no entries
    long perf = bytes.size();
    i32(0); // no counter labels
    long sizeTable = bytes.size();
    ints(sizes);
    long addresses = bytes.size();
    i32(0);
    i64(DumpiRankReader.HEAD_MAGIC);
    i64(sizeTable);
    i64(addresses);
    i64(perf);
    i64(header);
    i64(8);
    i64(footerAt);
    i64(0);
    return bytes.toByteArray();
  }
}
