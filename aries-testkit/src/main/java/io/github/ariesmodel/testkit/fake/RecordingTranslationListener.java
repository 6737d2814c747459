package io.github.ariesmodel.testkit.fake;

import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.spi.TranslationListener;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A {@link TranslationListener} that records every completion, for tests of an
 * {@link io.github.ariesmodel.core.spi.AddressTranslation} (the IOMMU, the flat translator, a user's own).
 *
 * <pre>{@code
 * RecordingTranslationListener done = new RecordingTranslationListener();
 * iommu.translate(TranslationClient.NETWORK_REQUEST, mdh, 0, 64, AccessKind.WRITE, tag, key, done, null, 7);
 * loop.run();
 * assertThat(done.only().status()).isEqualTo(Status.OK);
 * }</pre>
 */
public final class RecordingTranslationListener implements TranslationListener {

  /**
   * One completed translation, with the arguments the listener received.
   *
   * @param timePs completion time, picoseconds
   * @param status OK or the fault
   * @param physicalAddress physical address of the first byte
   * @param contiguousBytes contiguous bytes from there
   * @param ref the request's ref
   * @param arg the request's arg
   */
  public record Completion(
      long timePs, Status status, long physicalAddress, int contiguousBytes, Object ref, long arg) {}

  private final List<Completion> completions = new ArrayList<>();

  /** A listener that has recorded nothing. */
  public RecordingTranslationListener() {}

  @Override
  public void onTranslated(
      long nowPs, Status status, long physicalAddress, int contiguousBytes, Object ref, long arg) {
    completions.add(new Completion(nowPs, status, physicalAddress, contiguousBytes, ref, arg));
  }

  /** @return completions so far, in the order they came (read-only view) */
  public List<Completion> completions() {
    return Collections.unmodifiableList(completions);
  }

  /** @return completions so far */
  public int count() {
    return completions.size();
  }

  /**
   * The single completion recorded.
   *
   * @return it
   * @throws IllegalStateException unless exactly one completion was recorded
   */
  public Completion only() {
    if (completions.size() != 1) {
      throw new IllegalStateException("expected exactly 1 completion but there were " + completions.size());
    }
    return completions.get(0);
  }

  /** Forgets everything recorded. */
  public void clear() {
    completions.clear();
  }
}
