package io.github.ariesmodel.core.spi;

/**
 * A {@link HostMemory} that passes every call to another: the base of a view that changes some of them (a memory
 * that refuses a range, one that counts accesses, a cache's path), as Guava's forwarding collections are for
 * collections. {@link #physicalMemory()} is the other memory's, as a view's should be (so that a translator gives
 * frames back through it); {@link #free} gives back through it.
 */
public abstract class ForwardingHostMemory implements HostMemory {

  private final HostMemory delegate;

  /**
   * A view of {@code delegate}.
   *
   * @param delegate the memory every call goes to
   * @throws IllegalArgumentException when it is null
   */
  protected ForwardingHostMemory(HostMemory delegate) {
    if (delegate == null) {
      throw new IllegalArgumentException("delegate must not be null");
    }
    this.delegate = delegate;
  }

  /** @return the memory every call goes to */
  protected final HostMemory delegate() {
    return delegate;
  }

  @Override
  public long capacity() {
    return delegate.capacity();
  }

  @Override
  public HostMemory physicalMemory() {
    return delegate.physicalMemory();
  }

  @Override
  public void read(long address, byte[] dst, int dstOffset, int length) {
    delegate.read(address, dst, dstOffset, length);
  }

  @Override
  public void write(long address, byte[] src, int srcOffset, int length) {
    delegate.write(address, src, srcOffset, length);
  }

  @Override
  public long readLong(long address) {
    return delegate.readLong(address);
  }

  @Override
  public void writeLong(long address, long value) {
    delegate.writeLong(address, value);
  }

  @Override
  public int readInt(long address) {
    return delegate.readInt(address);
  }

  @Override
  public void writeInt(long address, int value) {
    delegate.writeInt(address, value);
  }

  @Override
  public long allocate(long bytes, long alignment) {
    return delegate.allocate(bytes, alignment);
  }

  @Override
  public long allocatedBytes() {
    return delegate.allocatedBytes();
  }

  @Override
  public boolean free(long address, long bytes) {
    return delegate.free(address, bytes);
  }
}
