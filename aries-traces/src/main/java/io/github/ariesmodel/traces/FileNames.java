package io.github.ariesmodel.traces;

import java.nio.charset.Charset;

/**
 * File names written inside trace files (a SimGrid index's entries, a DUMPI meta file's {@code fileprefix}): their
 * bytes name files on disk, and the JVM turns a name back into bytes with its file-name charset, so they are decoded
 * with that charset to name the same bytes.
 */
public final class FileNames {
  private FileNames() {
  }

  /**
   * @return the charset the JVM names files in ({@code sun.jnu.encoding}, set from the locale: UTF-8 on most
   *     systems), else the default charset
   */
  public static Charset charset() {
    String jnu = System.getProperty("sun.jnu.encoding");
    try {
      return jnu != null && Charset.isSupported(jnu) ? Charset.forName(jnu) : Charset.defaultCharset();
    } catch (IllegalArgumentException e) { // an illegal charset name
      return Charset.defaultCharset();
    }
  }
}
