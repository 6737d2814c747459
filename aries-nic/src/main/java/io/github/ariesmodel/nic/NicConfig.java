package io.github.ariesmodel.nic;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.ariesmodel.core.MemoryDomainDescriptor;

/**
 * The settings of one NIC: its timing, the sizes of its hardware tables, the FMA→BTE cut-over and the protection
 * tag and key of the job whose requests it issues.
 *
 * <table>
 *   <caption>Defaults</caption>
 *   <tr><th>setting</th><th>default</th><th>source</th></tr>
 *   <tr><td>{@code requestTags}</td><td>64 outstanding transactions</td>
 *       <td>assumed (first taken from the NPT's 64 request tags [S6e], which are the target's: the host reads of
 *       incoming GETs, {@code TargetEngine})</td></tr>
 *   <tr><td>{@code amoRequestList}</td><td>64 AMOs in the AMO unit at once</td>
 *       <td>[S6d] {@code reqlist_max} is 6 bits</td></tr>
 *   <tr><td>{@code bteChannels}</td><td>3</td><td>[S5] uGNI posts RDMA on "all three" BTE channels by default; the
 *       hardware has 4 [S6a] chn0-chn3 (up to 4 may be configured). 4 until stop 64</td></tr>
 *   <tr><td>{@code fmaBteThreshold}</td><td>4,096 bytes</td>
 *       <td>[S8] DMAPP's default CPU→offload threshold (GASNet uses 1,023 B [S9]); DMAPP is what Cray SHMEM runs
 *       on, and a SHMEM-like workload is what this NIC is driven by</td></tr>
 *   <tr><td>{@code injectHoldLimit}</td><td>8 packets waiting for a refused injection before issue stops</td>
 *       <td>assumed</td></tr>
 *   <tr><td>{@code amoCache}</td><td>64 entries, write-back when idle</td><td>{@link AmoCacheConfig}</td></tr>
 * </table>
 *
 * <p>The model tracks a tag per transaction (all packets of a transaction share its tag and the NIC counts their
 * responses), the way uGNI's source sync ids track an FMA sequence or a BTE descriptor; the hardware's finer
 * per-request bookkeeping (ORB) is not modelled.
 *
 * @param timing the timing
 * @param requestTags transactions that may be outstanding at once, 1..4096
 * @param amoRequestList AMOs the target's AMO unit holds at once, ≥ 1
 * @param bteChannels BTE transmit channels, 1..4
 * @param fmaBteThreshold posts of the AUTO engine of at least this many bytes (and at least 1) go to the BTE, as
 *     DMAPP's threshold [S8], ≥ 0
 * @param injectHoldLimit refused packets held before the NIC stops issuing, ≥ 1
 * @param protectionTag the PTAG this NIC's requests and local accesses carry, 0..255
 * @param protectionKey the PKEY this NIC's requests and local accesses carry, 0..65535
 * @param amoCache the AMO cache that cached AMO commands use ({@link AmoCacheConfig#off()} for none)
 */
public record NicConfig(
    NicTiming timing,
    int requestTags,
    int amoRequestList,
    int bteChannels,
    long fmaBteThreshold,
    int injectHoldLimit,
    int protectionTag,
    int protectionKey,
    AmoCacheConfig amoCache) {

  /** Largest number of request tags (the model encodes a tag in 12 bits of the packet's tag field). */
  public static final int MAX_REQUEST_TAGS = 4096;

  /** Validates the fields (ranges in the record javadoc). */
  public NicConfig {
    checkArgument(timing != null, "timing must not be null");
    checkArgument(requestTags >= 1 && requestTags <= MAX_REQUEST_TAGS,
        "requestTags must be in [1, 4096] but was %s", requestTags);
    checkArgument(amoRequestList >= 1, "amoRequestList must be >= 1 but was %s", amoRequestList);
    checkArgument(bteChannels >= 1 && bteChannels <= 4, "bteChannels must be in [1, 4] but was %s", bteChannels);
    checkArgument(fmaBteThreshold >= 0, "fmaBteThreshold must be >= 0 but was %s", fmaBteThreshold);
    checkArgument(injectHoldLimit >= 1, "injectHoldLimit must be >= 1 but was %s", injectHoldLimit);
    checkArgument(protectionTag >= 0 && protectionTag <= MemoryDomainDescriptor.MAX_PROTECTION_TAG,
        "protectionTag must be in [0, 255] but was %s", protectionTag);
    checkArgument(protectionKey >= 0 && protectionKey <= MemoryDomainDescriptor.MAX_PROTECTION_KEY,
        "protectionKey must be in [0, 65535] but was %s", protectionKey);
    checkArgument(amoCache != null, "amoCache must not be null");
  }

  /**
   * The settings with the default AMO cache ({@link AmoCacheConfig#defaults()}).
   *
   * @param timing the timing
   * @param requestTags transactions that may be outstanding at once, 1..4096
   * @param amoRequestList AMOs the target's AMO unit holds at once, ≥ 1
   * @param bteChannels BTE transmit channels, 1..4
   * @param fmaBteThreshold posts of the AUTO engine of at least this many bytes (and at least 1) go to the BTE, as
   *     DMAPP's threshold [S8], ≥ 0
   * @param injectHoldLimit refused packets held before the NIC stops issuing, ≥ 1
   * @param protectionTag the PTAG, 0..255
   * @param protectionKey the PKEY, 0..65535
   */
  public NicConfig(NicTiming timing, int requestTags, int amoRequestList, int bteChannels, long fmaBteThreshold,
      int injectHoldLimit, int protectionTag, int protectionKey) {
    this(timing, requestTags, amoRequestList, bteChannels, fmaBteThreshold, injectHoldLimit, protectionTag,
        protectionKey, AmoCacheConfig.defaults());
  }

  /**
   * The documented defaults, with PTAG 1 and PKEY 1 (register memory with the same pair to let these requests in).
   *
   * @return the defaults
   */
  public static NicConfig defaults() {
    return new NicConfig(NicTiming.defaults(), 64, 64, 3, 4096, 8, 1, 1, AmoCacheConfig.defaults());
  }

  /** @param t the timing @return a copy with it */
  public NicConfig withTiming(NicTiming t) {
    return new NicConfig(t, requestTags, amoRequestList, bteChannels, fmaBteThreshold, injectHoldLimit,
        protectionTag, protectionKey, amoCache);
  }

  /** @param tags outstanding transactions, 1..4096 @return a copy with them */
  public NicConfig withRequestTags(int tags) {
    return new NicConfig(timing, tags, amoRequestList, bteChannels, fmaBteThreshold, injectHoldLimit,
        protectionTag, protectionKey, amoCache);
  }

  /** @param bytes the FMA→BTE cut-over, bytes @return a copy with it */
  public NicConfig withFmaBteThreshold(long bytes) {
    return new NicConfig(timing, requestTags, amoRequestList, bteChannels, bytes, injectHoldLimit,
        protectionTag, protectionKey, amoCache);
  }

  /** @param tag PTAG @param key PKEY @return a copy with them */
  public NicConfig withProtection(int tag, int key) {
    return new NicConfig(timing, requestTags, amoRequestList, bteChannels, fmaBteThreshold, injectHoldLimit, tag,
        key, amoCache);
  }

  /** @param c the AMO cache's settings ({@link AmoCacheConfig#off()} for none) @return a copy with them */
  public NicConfig withAmoCache(AmoCacheConfig c) {
    return new NicConfig(timing, requestTags, amoRequestList, bteChannels, fmaBteThreshold, injectHoldLimit,
        protectionTag, protectionKey, c);
  }
}
