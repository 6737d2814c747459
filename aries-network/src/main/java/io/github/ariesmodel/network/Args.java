package io.github.ariesmodel.network;

/**
 * Argument checks of the topologies' query methods, which routing calls on every packet-hop: the test is a sign test
 * of plain integer arithmetic, with no branch but the one that throws and nothing allocated or formatted unless it
 * fails; the message is built by a method of its own, out of the caller's way.
 */
final class Args {

  private Args() {}

  /**
   * Negative exactly when {@code v} lies outside [0, n) (for n ≥ 0): {@code v < 0} sets the sign bit of {@code v},
   * {@code v ≥ n} that of {@code n - 1 - v}, which cannot overflow for {@code v ≥ 0}. Several arguments are checked
   * with one compare by or-ing their results: {@code (outside(a, n) | outside(b, m)) < 0}.
   *
   * @param v the value
   * @param n the count of valid values
   * @return a negative number when outside, else a non-negative one
   */
  static int outside(int v, int n) {
    return v | (n - 1 - v);
  }

  /**
   * @param name the parameter's name
   * @param v its value
   * @param n the count of valid values, [0, n)
   * @return the exception naming the parameter, the range and the value
   */
  static IllegalArgumentException outOfRange(String name, int v, int n) {
    if (n <= 0) {
      return new IllegalArgumentException(name + " must be in [0, " + (n - 1) + "] (this topology has none) but was "
          + v);
    }
    return new IllegalArgumentException(name + " must be in [0, " + (n - 1) + "] but was " + v);
  }

  /**
   * The exception for the first of two arguments that is out of range (the caller found that one is).
   *
   * @param name1 the first parameter's name
   * @param v1 its value
   * @param n1 its count of valid values
   * @param name2 the second parameter's name
   * @param v2 its value
   * @param n2 its count of valid values
   * @return the exception naming the parameter, the range and the value
   */
  static IllegalArgumentException outOfRange(String name1, int v1, int n1, String name2, int v2, int n2) {
    return outside(v1, n1) < 0 ? outOfRange(name1, v1, n1) : outOfRange(name2, v2, n2);
  }
}
