package io.github.ariesmodel.core.spi;

/**
 * An event's {@code ref} that knows which other object its handler will read first. Core's event loop calls {@link
 * #readAhead()} on the refs of the next events it will run, while the current ones run, so that the second object's
 * cache miss overlaps work instead of stalling the handler (the loop itself reads only the ref). Implementations read
 * the field of that object the handler reads first (which may lie past the object's first line), change nothing
 * the simulation reads, and must not fail; results never depend on whether it is called.
 */
public interface ReadAhead {

  /** Reads the object the handler will read first. */
  void readAhead();
}
