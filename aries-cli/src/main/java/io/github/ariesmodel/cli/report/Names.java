package io.github.ariesmodel.cli.report;

/** Validation of the names used in results. */
final class Names {

  private Names() {}

  /** Names that become file names: letters, digits, '.', '_' and '-', not starting with '.'. */
  static String checkFileSafe(String what, String name) {
    checkText(what, name);
    if (name.charAt(0) == '.' || !name.matches("[A-Za-z0-9._-]+")) {
      throw new IllegalArgumentException(what + " must be letters, digits, '.', '_' or '-' (not starting with '.')"
          + " but was \"" + name + "\"");
    }
    return name;
  }

  /** Any non-empty text without control characters. */
  static String checkText(String what, String name) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException(what + " must be non-empty but was " + (name == null ? "null" : "\"\""));
    }
    for (int i = 0; i < name.length(); i++) {
      if (Character.isISOControl(name.charAt(i))) {
        throw new IllegalArgumentException(what + " must not contain control characters but was \""
            + name.replaceAll("\\p{Cntrl}", "?") + "\"");
      }
    }
    return name;
  }
}
