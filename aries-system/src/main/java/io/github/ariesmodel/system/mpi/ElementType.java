package io.github.ariesmodel.system.mpi;

import io.github.ariesmodel.core.LittleEndian;

/** The element types the collectives reduce: 64-bit integers and doubles, stored little-endian in byte buffers. */
enum ElementType {
  LONG,
  DOUBLE;

  static final int BYTES = 8;
  /**
   * Most elements a reduction or an accumulate carries: the model moves their data as one Java byte array of
   * {@value #BYTES} bytes an element, at most 2^31 - 1 bytes (2^28 elements made -2^31 bytes and a
   * NegativeArraySizeException; 2^29, 0 bytes).
   */
  static final int MAX_COUNT = Integer.MAX_VALUE / BYTES;

  /**
   * Refuses, in one line, an array of more elements than {@link #MAX_COUNT}.
   *
   * @param what the argument's name
   * @param count its elements
   */
  static void checkCount(String what, int count) {
    if (count > MAX_COUNT) {
      throw new IllegalArgumentException(what + " must have at most " + MAX_COUNT + " elements (the model carries"
          + " their " + BYTES + " bytes each in one Java byte array, of at most 2^31 - 1 bytes) but had " + count);
    }
  }

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
