package io.github.ariesmodel.nic;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.spi.AddressTranslation;
import java.util.Optional;

/**
 * The checks uGNI and the NIC make on a post before it is accepted ({@code GNI_PostFma}, {@code GNI_PostRdma},
 * {@code GNI_PostCqWrite} [S5]), and the choice of engine: {@code AUTO} sends a PUT or GET of at least
 * {@link NicConfig#fmaBteThreshold()} bytes (and at least 1) to the BTE, every other post to FMA. Every GET, FMA or
 * BTE, needs its remote offset and length in whole 4-byte words (uGNI answers {@code GNI_RC_ALIGNMENT_ERROR} [S5];
 * the BTE descriptor [S6a]; docs/aries-facts.md §3.2 lists the libraries that round their GETs for it); until stop
 * 75 only a BTE GET was held to it, and {@code AUTO} sent an unaligned long GET to FMA. Caller mistakes are
 * {@link IllegalArgumentException}s naming the field, the valid range and the value. Untimed: validation happens
 * when the host posts.
 */
final class PostValidator {
  private final int nodeId;
  private final int nodeCount;
  private final NicConfig config;
  private final AddressTranslation translation;
  private final CompletionWriter completions;

  PostValidator(int nodeId, int nodeCount, NicConfig config, AddressTranslation translation,
      CompletionWriter completions) {
    this.nodeId = nodeId;
    this.nodeCount = nodeCount;
    this.config = config;
    this.translation = translation;
    this.completions = completions;
  }

  /**
   * Checks a post.
   *
   * @param p the post as given
   * @return the post with its engine resolved (never {@code AUTO})
   * @throws IllegalArgumentException when the post cannot be carried out (see {@link Nic#post})
   */
  Post validate(Post p) {
    NetworkAddress r = p.remote();
    checkArgument(r.nodeId() < nodeCount, "post.remote.nodeId must be in [0, %s] but was %s", nodeCount - 1,
        r.nodeId());
    if (p.completionQueue() != Post.NO_CQ) {
      checkArgument(completions.queue(p.completionQueue()) != null,
          "post.completionQueue must name a CQ of node %s (%s) but was %s", nodeId,
          completions.describeHandles(), p.completionQueue());
      completions.checkSourceQueue("post.completionQueue", p.completionQueue());
    }
    switch (p.type()) {
      case PUT:
      case GET: {
        boolean get = p.type() == Post.PostType.GET;
        checkArgument(!get || p.length() > 0,
            "post.length must be in [1, 4294967295] for a GET (zero-length GETs are not allowed [S5]) but was 0");
        checkArgument(!get || ((r.offset() | p.length()) & 3) == 0, "a GET (FMA or BTE) needs post.remote.offset and"
            + " post.length to be multiples of 4 (uGNI's GNI_RC_ALIGNMENT_ERROR [S5][S6a]) but they were %s and %s",
            r.offset(), p.length());
        checkArgument(r.offset() + p.length() <= NetworkAddress.MAX_OFFSET + 1,
            "post.remote.offset + post.length must be <= 2^40 but was %s + %s", r.offset(), p.length());
        if (p.carriesValue()) {
          return checkValuePut(p);
        }
        checkLocal(p, p.length(), get);
        if (p.engine() == Post.Engine.AUTO) {
          // DMAPP's rule [S8]: "transfers of this size or larger" are offloaded (a zero-length PUT stays on FMA)
          p = p.withEngine(p.length() > 0 && p.length() >= config.fmaBteThreshold()
              ? Post.Engine.BTE : Post.Engine.FMA);
        }
        return p;
      }
      case AMO: {
        int w = p.amo().operandBytes();
        checkArgument(p.length() == w, "post.length must be %s for %s (zero-length AMOs are not allowed [S5]) "
            + "but was %s", w, p.amo(), p.length());
        checkArgument(r.offset() % w == 0, "post.remote.offset must be a multiple of %s for %s but was %s", w,
            p.amo(), r.offset());
        if (p.localMdh() != Post.NO_LOCAL) {
          checkArgument(p.localOffset() % w == 0, "post.localOffset must be a multiple of %s for %s but was %s", w,
              p.amo(), p.localOffset());
          checkLocal(p, w, true);
        }
        return p.engine() == Post.Engine.AUTO ? p.withEngine(Post.Engine.FMA) : p;
      }
      case CQ_WRITE:
        return p.engine() == Post.Engine.AUTO ? p.withEngine(Post.Engine.FMA) : p;
      default:
        throw new AssertionError(p.type());
    }
  }

  /** A PUT whose data is in the post ({@link Post#putValue}): one naturally aligned word of 4 or 8 bytes, on FMA. */
  private static Post checkValuePut(Post p) {
    long n = p.length();
    checkArgument(n == 4 || n == 8, "post.length must be 4 or 8 for a PUT without a local buffer (its data in the post,"
        + " Post.putValue; any other PUT needs post.localMdh, a registered memory domain) but was %s", n);
    checkArgument(p.localOffset() == 0, "post.localOffset must be 0 for a PUT without a local buffer (Post.putValue)"
        + " but was %s", p.localOffset());
    checkArgument(p.remote().offset() % n == 0, "post.remote.offset must be a multiple of %s for a PUT of its value"
        + " (Post.putValue) but was %s", n, p.remote().offset());
    checkArgument(p.engine() != Post.Engine.BTE, "engine must be FMA or AUTO for a PUT of its value (Post.putValue):"
        + " the BTE reads its data from memory");
    return p.engine() == Post.Engine.AUTO ? p.withEngine(Post.Engine.FMA) : p;
  }

  private void checkLocal(Post p, long length, boolean written) {
    int mdh = p.localMdh();
    checkArgument(mdh != Post.NO_LOCAL, "post.localMdh must name a registered memory domain of node %s but was -1",
        nodeId);
    Optional<MemoryDomainDescriptor> od = translation.descriptor(mdh);
    checkArgument(od.isPresent() && od.get().valid(),
        "post.localMdh must name a registered memory domain of node %s but %s is not registered", nodeId, mdh);
    MemoryDomainDescriptor d = od.get();
    checkArgument(p.localOffset() + length <= d.length(),
        "post.localOffset + length must be <= %s (the registration's length) but was %s + %s", d.length(),
        p.localOffset(), length);
    checkArgument(!written || d.writable(), "post.localMdh %s is registered read-only but the %s writes into it",
        mdh, p.type());
    checkDomain("post.localMdh", mdh, d, nodeId, config);
  }

  /**
   * Refuses a local buffer registered in another protection domain than the one this NIC posts as: uGNI takes a
   * post's local memory handle only from the posting domain ({@code GNI_RC_PERMISSION_ERROR}'s counterpart [S5]).
   * Until stop 75 such a buffer was accepted, and a fetching AMO whose result buffer it was changed the remote word
   * and then reported a PROTECTION_VIOLATION, as if nothing had been done.
   *
   * @param field the field named in the refusal
   * @param mdh the local MDH
   * @param d its descriptor (registered and valid)
   * @param nodeId this NIC's node
   * @param config this NIC's settings (its PTAG and PKEY)
   */
  static void checkDomain(String field, int mdh, MemoryDomainDescriptor d, int nodeId, NicConfig config) {
    checkArgument(d.protectionTag() == config.protectionTag() && d.protectionKey() == config.protectionKey(),
        "%s %s belongs to protection domain (ptag %s, pkey %s) but node %s's NIC posts as (%s, %s)", field, mdh,
        d.protectionTag(), d.protectionKey(), nodeId, config.protectionTag(), config.protectionKey());
  }
}
