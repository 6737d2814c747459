package io.github.ariesmodel.system.mpi;

import io.github.ariesmodel.core.LittleEndian;

/** The element types the collectives reduce: 64-bit integers and doubles, stored little-endian in byte buffers. */
enum ElementType {
  LONG,
  DOUBLE;

  static final int BYTES = 8;

  /** acc[accOff..] = acc op in[inOff..], count elements. */
  void reduce(ReduceOp op, byte[] acc, int accOff, byte[] in, int inOff, int count) {
    for (int i = 0; i < count; i++) {
      int a = accOff + i * BYTES;
      int b = inOff + i * BYTES;
      long x = LittleEndian.get(acc, a, BYTES);
      long y = LittleEndian.get(in, b, BYTES);
      long r = this == LONG ? op.apply(x, y)
          : Double.doubleToRawLongBits(op.apply(Double.longBitsToDouble(x), Double.longBitsToDouble(y)));
      LittleEndian.put(acc, a, BYTES, r);
    }
  }

  static byte[] pack(long[] v) {
    byte[] b = new byte[v.length * BYTES];
    for (int i = 0; i < v.length; i++) {
      LittleEndian.put(b, i * BYTES, BYTES, v[i]);
    }
    return b;
  }

  static byte[] pack(double[] v) {
    byte[] b = new byte[v.length * BYTES];
    for (int i = 0; i < v.length; i++) {
      LittleEndian.put(b, i * BYTES, BYTES, Double.doubleToRawLongBits(v[i]));
    }
    return b;
  }

  static void unpack(byte[] b, long[] out) {
    for (int i = 0; i < out.length; i++) {
      out[i] = LittleEndian.get(b, i * BYTES, BYTES);
    }
  }

  static void unpack(byte[] b, double[] out) {
    for (int i = 0; i < out.length; i++) {
      out[i] = Double.longBitsToDouble(LittleEndian.get(b, i * BYTES, BYTES));
    }
  }
}
