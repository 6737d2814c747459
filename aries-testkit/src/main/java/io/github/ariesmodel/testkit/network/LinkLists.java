package io.github.ariesmodel.testkit.network;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Small, valid link lists in the Cray format {@code CabledDragonfly} reads (one line per router port), for tests that
 * need a cabled system without shipping a file: groups with the file numbers a caller chooses (so numbers can be
 * skipped, as on real machines), rank-1 all-to-all in each row, one rank-2 cable per pair of rows in each column, a
 * chosen number of rank-3 cables per group pair, and one rank-3 port per router listed {@code unused}.
 *
 * <p>Tiles: a green cable to column {@code k} leaves from tile {@code l0k}, a black cable to row {@code k} from tile
 * {@code l1k}, blue cables take tiles {@code l20} onward in the order they are made, the unused port is the next free
 * one, and a router's NICs are tiles {@code l50} onward (two per NIC).
 */
public final class LinkLists {

  private LinkLists() {}

  /**
   * A regular cabled system.
   *
   * @param fileGroups the groups' numbers in the file, distinct, each 0 to 255
   * @param rows rows (chassis) per group, 1 to 8
   * @param columns columns (slots) per row, 1 to 8
   * @param nodesPerRouter NICs per router, 1 to 4
   * @param linksPerPair rank-3 cables between every two groups, ≥ 1; link {@code k} of the {@code q}-th group pair
   *     joins router {@code (q·linksPerPair + k) mod (rows·columns)} of both groups
   * @return the lines of the file
   * @throws IllegalArgumentException when a router would need more than the 24 rank-3 tiles (l20..l47)
   */
  public static List<String> regular(int[] fileGroups, int rows, int columns, int nodesPerRouter, int linksPerPair) {
    check(rows >= 1 && rows <= 8, "rows must be in [1, 8] but was " + rows);
    check(columns >= 1 && columns <= 8, "columns must be in [1, 8] but was " + columns);
    check(nodesPerRouter >= 1 && nodesPerRouter <= 4, "nodesPerRouter must be in [1, 4] but was " + nodesPerRouter);
    check(linksPerPair >= 1, "linksPerPair must be >= 1 but was " + linksPerPair);
    check(fileGroups != null, "fileGroups must not be null");
    Set<Integer> seen = new HashSet<>();
    for (int i = 0; i < fileGroups.length; i++) {
      // a group number is the cabinet's in the port names (c<g>-...): a negative one wrote "c-1-0c0s0..."
      check(fileGroups[i] >= 0 && fileGroups[i] <= 255,
          "fileGroups[" + i + "] must be in [0, 255] but was " + fileGroups[i]);
      // a group listed twice cabled its routers twice over, a list no cabling reader takes
      check(seen.add(fileGroups[i]), "fileGroups must be distinct but " + fileGroups[i] + " appears twice");
    }
    List<String> lines = new ArrayList<>();
    for (int g : fileGroups) {
      for (int r = 0; r < rows; r++) {
        for (int c = 0; c < columns; c++) {
          for (int k = 0; k < columns; k++) {
            if (k != c) {
              lines.add(port(g, r, c, 0, k) + " green -> " + port(g, r, k, 0, c));
            }
          }
          for (int k = 0; k < rows; k++) {
            if (k != r) {
              lines.add(port(g, r, c, 1, k) + " black -> " + port(g, k, c, 1, r));
            }
          }
          for (int n = 0; n < 2 * nodesPerRouter; n++) {
            lines.add(port(g, r, c, 5, n) + " ptile -> processor");
          }
        }
      }
    }
    int per = rows * columns;
    Map<Integer, Integer> blueUsed = new HashMap<>(); // (group << 16 | router index) -> blue tiles taken
    int pair = 0;
    for (int a = 0; a < fileGroups.length; a++) {
      for (int b = a + 1; b < fileGroups.length; b++) {
        for (int k = 0; k < linksPerPair; k++) {
          int i = (pair * linksPerPair + k) % per;
          int ta = nextBlue(blueUsed, fileGroups[a], i);
          int tb = nextBlue(blueUsed, fileGroups[b], i);
          String ea = port(fileGroups[a], i / columns, i % columns, ta / 8, ta % 8);
          String eb = port(fileGroups[b], i / columns, i % columns, tb / 8, tb % 8);
          lines.add(ea + " blue -> " + eb);
          lines.add(eb + " blue -> " + ea);
        }
        pair++;
      }
    }
    for (int g : fileGroups) {
      for (int i = 0; i < per; i++) {
        int t = nextBlue(blueUsed, g, i);
        lines.add(port(g, i / columns, i % columns, t / 8, t % 8) + " blue -> unused");
      }
    }
    return lines;
  }

  private static int nextBlue(Map<Integer, Integer> used, int group, int index) {
    int n = used.merge(group << 16 | index, 1, Integer::sum) - 1;
    check(n < 24, "router " + index + " of group " + group + " would need more than 24 rank-3 tiles");
    return 16 + n;
  }

  /** The Cray name of a port: cabinet {@code c<group>-0}, chassis = row, slot = column, tile {@code l<tr><tc>}. */
  private static String port(int g, int r, int c, int tileRow, int tileColumn) {
    return "c" + g + "-0c" + r + "s" + c + "a0l" + tileRow + tileColumn + "(" + g + ":" + r + ":" + c + ")";
  }

  private static void check(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }
}
