package io.github.ariesmodel.traces.dumpi;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * The fields of one DUMPI function's record after its common prefix, in this reader's notation: a space-separated list
 * of {@code name:code}, a leading {@code ?} marking a field present only on the root (when the record's
 * {@code commrank} or {@code oldcommrank} equals its {@code root}; {@code dumpiio.c} writes the root-only arguments of
 * gather, scatter and spawn that way).
 *
 * <table>
 *   <caption>Field codes (all integers big-endian, as {@code iodefs.h}'s get16/get32/get64 read them)</caption>
 *   <tr><th>code</th><th>bytes</th><th>what</th></tr>
 *   <tr><td>i</td><td>4</td><td>int32: counts, ranks, tags, requests (DUMPI's {@code GET_INT}, DEST, SOURCE, TAG,
 *       REQUEST)</td></tr>
 *   <tr><td>c</td><td>2</td><td>communicator handle</td></tr>
 *   <tr><td>t</td><td>2</td><td>datatype handle</td></tr>
 *   <tr><td>s</td><td>2</td><td>other 16-bit handle (group, info, file, window, keyval, errhandler)</td></tr>
 *   <tr><td>b</td><td>1</td><td>8-bit enumeration (op, comparison, thread level, ...)</td></tr>
 *   <tr><td>l</td><td>8</td><td>int64 (file offsets, function addresses)</td></tr>
 *   <tr><td>S</td><td>4 + n x (10 or 14)</td><td>statuses, present only when the record's config mask enables them:
 *       count, then bytes, source (int32), cancelled, error (int8) and, from DUMPI 0.6.3, tag (int32)</td></tr>
 *   <tr><td>I</td><td>4 + 4n</td><td>int32 array with its length</td></tr>
 *   <tr><td>T, H</td><td>4 + 2n</td><td>16-bit handle array (datatypes, infos)</td></tr>
 *   <tr><td>B</td><td>4 + n</td><td>8-bit array (distributions)</td></tr>
 *   <tr><td>A</td><td>4 + ...</td><td>array of int32 arrays</td></tr>
 *   <tr><td>C</td><td>4 + n</td><td>character array with its length</td></tr>
 *   <tr><td>D, E</td><td>4 + ...</td><td>array of character arrays; array of those</td></tr>
 *   <tr><td>n, m</td><td></td><td>int32 array from DUMPI 0.6.9 (n) or 0.6.8 (m), a single int32 before
 *       ({@code MPI_Type_struct}'s indices, {@code MPI_Cart_get}'s coords)</td></tr>
 *   <tr><td>g</td><td></td><td>{@code MPI_Init}'s argv: count (twice before 0.6.2), then character arrays</td></tr>
 * </table>
 */
final class DumpiLayout {
  static final int MAX_FIELDS = 16;

  /** How each field code is read; each reads its bytes into the record or checks and skips them. */
  enum Field {
    INT32('i') {
      @Override
      void read(DumpiInput in, DumpiRecord r, int f) throws IOException {
        r.scalars[f] = in.i32();
      }
    },
    COMM('c') {
      @Override
      void read(DumpiInput in, DumpiRecord r, int f) throws IOException {
        r.scalars[f] = in.u16();
      }
    },
    DATATYPE('t') {
      @Override
      void read(DumpiInput in, DumpiRecord r, int f) throws IOException {
        r.scalars[f] = in.u16();
      }
    },
    HANDLE16('s') {
      @Override
      void read(DumpiInput in, DumpiRecord r, int f) throws IOException {
        r.scalars[f] = in.u16();
      }
    },
    ENUM8('b') {
      @Override
      void read(DumpiInput in, DumpiRecord r, int f) throws IOException {
        r.scalars[f] = in.u8();
      }
    },
    INT64('l') {
      @Override
      void read(DumpiInput in, DumpiRecord r, int f) throws IOException {
        r.scalars[f] = in.i64();
      }
    },
    STATUSES('S') {
      @Override
      void read(DumpiInput in, DumpiRecord r, int f) throws IOException {
        if ((r.mask & DumpiRecord.MASK_STATUSES) == 0) {
          return;
        }
        int entryBytes = r.versionAtLeast(0, 6, 3) ? 14 : 10;
        int n = in.count(entryBytes);
        r.statusCount = n;
        if (n > 0) {
          r.firstStatusBytes = in.i32();
          r.firstStatusSource = in.i32();
          in.skip((long) n * entryBytes - 8);
        }
      }
    },
    INT32_ARRAY('I') {
      @Override
      void read(DumpiInput in, DumpiRecord r, int f) throws IOException {
        int n = in.count(4);
        int[] a = r.arrayFor(f, n);
        for (int i = 0; i < n; i++) {
          a[i] = in.i32();
        }
      }
    },
    DATATYPE_ARRAY('T') {
      @Override
      void read(DumpiInput in, DumpiRecord r, int f) throws IOException {
        int n = in.count(2);
        int[] a = r.arrayFor(f, n);
        for (int i = 0; i < n; i++) {
          a[i] = in.u16();
        }
      }
    },
    HANDLE16_ARRAY('H') {
      @Override
      void read(DumpiInput in, DumpiRecord r, int f) throws IOException {
        in.skip(2L * in.count(2));
      }
    },
    ENUM8_ARRAY('B') {
      @Override
      void read(DumpiInput in, DumpiRecord r, int f) throws IOException {
        in.skip(in.count(1));
      }
    },
    INT32_ARRAY_2D('A') {
      /** Stores the rows one after another (lengths: the total), and the row count in the field's scalar. */
      @Override
      void read(DumpiInput in, DumpiRecord r, int f) throws IOException {
        int rows = in.count(4);
        int total = 0;
        int[] a = r.arrayFor(f, 0);
        for (int i = 0; i < rows; i++) {
          int n = in.count(4);
          if (a.length - total < n) {
            a = Arrays.copyOf(a, Math.max(total + n, 2 * a.length));
            r.arrays[f] = a;
          }
          for (int j = 0; j < n; j++) {
            a[total + j] = in.i32();
          }
          total += n;
        }
        r.lengths[f] = total;
        r.scalars[f] = rows;
      }
    },
    CHARS('C') {
      @Override
      void read(DumpiInput in, DumpiRecord r, int f) throws IOException {
        in.skip(in.count(1));
      }
    },
    CHARS_2D('D') {
      @Override
      void read(DumpiInput in, DumpiRecord r, int f) throws IOException {
        int rows = in.count(4);
        for (int i = 0; i < rows; i++) {
          in.skip(in.count(1));
        }
      }
    },
    CHARS_3D('E') {
      @Override
      void read(DumpiInput in, DumpiRecord r, int f) throws IOException {
        int blocks = in.count(4);
        for (int b = 0; b < blocks; b++) {
          int rows = in.count(4);
          for (int i = 0; i < rows; i++) {
            in.skip(in.count(1));
          }
        }
      }
    },
    INT32_ARRAY_SINCE_0_6_9('n') {
      @Override
      void read(DumpiInput in, DumpiRecord r, int f) throws IOException {
        if (r.versionAtLeast(0, 6, 9)) {
          INT32_ARRAY.read(in, r, f);
        } else {
          r.arrayFor(f, 1)[0] = in.i32();
        }
      }
    },
    INT32_ARRAY_SINCE_0_6_8('m') {
      @Override
      void read(DumpiInput in, DumpiRecord r, int f) throws IOException {
        if (r.versionAtLeast(0, 6, 8)) {
          INT32_ARRAY.read(in, r, f);
        } else {
          r.arrayFor(f, 1)[0] = in.i32();
        }
      }
    },
    INIT_ARGV('g') {
      @Override
      void read(DumpiInput in, DumpiRecord r, int f) throws IOException {
        int argc = in.count(4);
        if (!r.versionAtLeast(0, 6, 2)) {
          in.i32(); // written twice before 0.6.2 (dumpiio.c, dumpi_read_init)
        }
        for (int i = 0; i < argc; i++) {
          in.skip(in.count(1));
        }
      }
    };

    private final char code;

    Field(char code) {
      this.code = code;
    }

    abstract void read(DumpiInput in, DumpiRecord r, int field) throws IOException;

    static Field of(char code) {
      for (Field f : values()) {
        if (f.code == code) {
          return f;
        }
      }
      return null;
    }
  }

  private final Field[] codes;
  private final String[] names;
  private final boolean[] rootOnly;
  private final int rankField;
  private final int rootField;

  private DumpiLayout(Field[] codes, String[] names, boolean[] rootOnly) {
    this.codes = codes;
    this.names = names;
    this.rootOnly = rootOnly;
    this.rankField = Math.max(indexOf("commrank"), indexOf("oldcommrank"));
    this.rootField = indexOf("root");
  }

  static DumpiLayout parse(String spec) {
    List<String> tokens = spec.isEmpty() ? List.of() : List.of(spec.split(" "));
    if (tokens.size() > MAX_FIELDS) {
      throw new IllegalArgumentException("layout has more than " + MAX_FIELDS + " fields: " + spec);
    }
    Field[] codes = new Field[tokens.size()];
    String[] names = new String[tokens.size()];
    boolean[] rootOnly = new boolean[tokens.size()];
    for (int i = 0; i < tokens.size(); i++) {
      String t = tokens.get(i);
      rootOnly[i] = t.startsWith("?");
      String body = rootOnly[i] ? t.substring(1) : t;
      int colon = body.indexOf(':');
      if (colon < 1 || colon != body.length() - 2 || Field.of(body.charAt(colon + 1)) == null) {
        throw new IllegalArgumentException("bad layout field '" + t + "' in: " + spec);
      }
      names[i] = body.substring(0, colon);
      codes[i] = Field.of(body.charAt(colon + 1));
    }
    DumpiLayout layout = new DumpiLayout(codes, names, rootOnly);
    for (boolean r : rootOnly) {
      if (r && (layout.rankField < 0 || layout.rootField < 0)) {
        throw new IllegalArgumentException("root-only field without commrank and root in: " + spec);
      }
    }
    return layout;
  }

  private int indexOf(String name) {
    for (int i = 0; i < names.length; i++) {
      if (names[i].equals(name)) {
        return i;
      }
    }
    return -1;
  }

  /** Index of a named field; a missing name is a programming error in this reader. */
  int field(String name) {
    int i = indexOf(name);
    if (i < 0) {
      throw new IllegalArgumentException("no field '" + name + "' in layout " + String.join(" ", names));
    }
    return i;
  }

  int size() {
    return codes.length;
  }

  Field code(int i) {
    return codes[i];
  }

  String name(int i) {
    return names[i];
  }

  boolean rootOnly(int i) {
    return rootOnly[i];
  }

  int rankField() {
    return rankField;
  }

  int rootField() {
    return rootField;
  }
}
