package io.github.ariesmodel.testkit.gen;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.AmoKind;
import io.github.ariesmodel.core.AmoOperation;
import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.NetworkAddresses;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.PageTableEntry;
import io.github.ariesmodel.core.PhysicalAddress;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.VirtualAddress;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.packet.PacketKind;
import io.github.ariesmodel.core.packet.WireFormat;
import java.util.random.RandomGenerator;

/**
 * Factories of random aries-core values driven by a caller's {@link RandomGenerator}, for any property-testing
 * library or plain seeded loops. Every value is valid, and every bit field is biased toward its edges: about a
 * quarter of the draws of a field are 0, 1, the maximum, the field's top bit alone, or the value just below it; the
 * rest are uniform. The same generator state gives the same values, so a seed reproduces a run.
 *
 * <pre>{@code
 * RandomGenerator r = new SplittableRandom(42);          // or RandomGenerator.of("L64X128MixRandom")
 * NetworkAddress a = CoreRandom.networkAddress(r);
 * Packet p = CoreRandom.request(r, 16);                  // a request between nodes 0..15
 * }</pre>
 *
 * <p>{@link CoreGenerators} offers the same kinds of values as QuickTheories {@code Gen}s (which shrink).
 */
public final class CoreRandom {

  private CoreRandom() {}

  /**
   * An unsigned {@code width}-bit value, edge-biased.
   *
   * @param r the random source
   * @param width 1 to 63
   * @return a value in {@code [0, 2^width - 1]}
   */
  public static long field(RandomGenerator r, int width) {
    checkSource(r);
    long[] edges = Edges.of(width);
    if (r.nextInt(100) < Edges.EDGE_PERCENT) {
      return edges[r.nextInt(edges.length)];
    }
    return r.nextLong(1L << width);
  }

  /** @param r the random source @return a valid 18-bit node id */
  public static int nodeId(RandomGenerator r) {
    checkSource(r);
    return (int) field(r, NetworkAddress.NODE_ID_BITS);
  }

  /**
   * A node id of a system with {@code nodeCount} nodes, biased toward 0, 1 and the last node.
   *
   * @param r the random source
   * @param nodeCount 1 to 2^18
   * @return a node id in {@code [0, nodeCount - 1]}
   */
  public static int nodeId(RandomGenerator r, int nodeCount) {
    checkSource(r);
    checkNodeCount(nodeCount);
    if (r.nextInt(100) < Edges.EDGE_PERCENT) {
      int[] edges = {0, Math.min(1, nodeCount - 1), nodeCount - 1};
      return edges[r.nextInt(edges.length)];
    }
    return r.nextInt(nodeCount);
  }

  /** @param r the random source @return a valid 12-bit MDH */
  public static int mdh(RandomGenerator r) {
    checkSource(r);
    return (int) field(r, NetworkAddress.MDH_BITS);
  }

  /** @param r the random source @return a valid 40-bit offset */
  public static long offset(RandomGenerator r) {
    checkSource(r);
    return field(r, NetworkAddress.OFFSET_BITS);
  }

  /** @param r the random source @return a valid 30-bit endpoint ({@code nodeId << 12 | mdh}) */
  public static int endpoint(RandomGenerator r) {
    checkSource(r);
    return NetworkAddresses.endpoint(nodeId(r), mdh(r));
  }

  /** @param r the random source @return a network address with each field edge-biased independently */
  public static NetworkAddress networkAddress(RandomGenerator r) {
    checkSource(r);
    return new NetworkAddress(nodeId(r), mdh(r), offset(r));
  }

  /** @param r the random source @return one of the 17 page sizes, 4K and 2M twice as often as the others */
  public static PageSize pageSize(RandomGenerator r) {
    checkSource(r);
    PageSize[] all = PageSize.values();
    return r.nextBoolean() ? all[r.nextInt(all.length)] : all[r.nextInt(2)];
  }

  /**
   * A canonical 48-bit virtual address, from the lower half three times in four.
   *
   * @param r the random source
   * @return the address
   */
  public static VirtualAddress virtualAddress(RandomGenerator r) {
    checkSource(r);
    long low = field(r, VirtualAddress.BITS - 1);
    return VirtualAddress.of(r.nextInt(4) == 0 ? low | (-1L << (VirtualAddress.BITS - 1)) : low);
  }

  /** @param r the random source @return a 52-bit physical address */
  public static PhysicalAddress physicalAddress(RandomGenerator r) {
    checkSource(r);
    return PhysicalAddress.of(field(r, PhysicalAddress.BITS));
  }

  /** @param r the random source @return a 40-bit frame number */
  public static long frameNumber(RandomGenerator r) {
    checkSource(r);
    return field(r, PageTableEntry.FRAME_BITS);
  }

  /**
   * A page-table entry: any flags, any page size, and for leaves a frame aligned to the page size.
   *
   * @param r the random source
   * @return the entry
   */
  public static PageTableEntry pageTableEntry(RandomGenerator r) {
    checkSource(r);
    boolean leaf = r.nextBoolean();
    PageSize size = pageSize(r);
    long frame = frameNumber(r);
    if (leaf) {
      frame &= -(size.bytes() >>> PageSize.SMALL_SHIFT);
    }
    return new PageTableEntry(r.nextBoolean(), r.nextBoolean(), leaf, size, frame);
  }

  /** @param r the random source @return an 8-bit protection tag */
  public static int protectionTag(RandomGenerator r) {
    checkSource(r);
    return (int) field(r, 8);
  }

  /** @param r the random source @return a 16-bit protection key */
  public static int protectionKey(RandomGenerator r) {
    checkSource(r);
    return (int) field(r, 16);
  }

  /** @param r the random source @return a translation context, 0..15 */
  public static int translationContext(RandomGenerator r) {
    checkSource(r);
    return (int) field(r, 4);
  }

  /** @param r the random source @return a CQ handle 0..2047, or {@link MemoryDomainDescriptor#NO_CQ} one time in 8 */
  public static int completionQueue(RandomGenerator r) {
    checkSource(r);
    return r.nextInt(8) == 0 ? MemoryDomainDescriptor.NO_CQ : (int) field(r, 11);
  }

  /**
   * A registration: base aligned to its page size in the lower canonical half, length 1 byte to a few pages (edge
   * lengths 1, one page, one page ± 1 are favoured), any flags.
   *
   * @param r the random source
   * @return the registration
   */
  public static MemoryRegistration memoryRegistration(RandomGenerator r) {
    checkSource(r);
    PageSize size = pageSize(r);
    long pages = (VirtualAddress.MAX_LOWER_HALF + 1) >>> size.shift();
    long length = length(r, size);
    long maxBasePage = Math.max(0, pages - 1 - ((length - 1) >>> size.shift()) - 1);
    long basePage = r.nextInt(4) == 0 ? (r.nextBoolean() ? 0 : maxBasePage) : r.nextLong(maxBasePage + 1);
    return new MemoryRegistration(basePage << size.shift(), length, size, r.nextBoolean(), protectionTag(r),
        protectionKey(r), translationContext(r), completionQueue(r), r.nextBoolean());
  }

  private static long length(RandomGenerator r, PageSize size) {
    long page = size.bytes();
    long cap = Math.min(4 * page, 1L << NetworkAddress.OFFSET_BITS);
    return switch (r.nextInt(6)) {
      case 0 -> 1;
      case 1 -> page;
      case 2 -> page + 1;
      case 3 -> Math.max(1, page - 1);
      default -> 1 + r.nextLong(cap);
    };
  }

  /**
   * A descriptor built from {@link #memoryRegistration}, valid three times in four.
   *
   * @param r the random source
   * @return the descriptor
   */
  public static MemoryDomainDescriptor memoryDomainDescriptor(RandomGenerator r) {
    checkSource(r);
    MemoryRegistration g = memoryRegistration(r);
    return new MemoryDomainDescriptor(mdh(r), r.nextInt(4) != 0, g.virtualBase(), g.length(), g.writable(),
        g.protectionTag(), g.protectionKey(), g.translationContext(), g.pageSize(), g.completionQueue(),
        g.prefetch());
  }

  /** @param r the random source @return one of the 50 AMO operations, uniformly */
  public static AmoOperation amoOperation(RandomGenerator r) {
    checkSource(r);
    AmoOperation[] all = AmoOperation.all();
    return all[r.nextInt(all.length)];
  }

  /** @param r the random source @return an AMO kind, uniformly */
  public static AmoKind amoKind(RandomGenerator r) {
    checkSource(r);
    return pick(r, AmoKind.values());
  }

  /** @param r the random source @return a delivery mode, uniformly */
  public static DeliveryMode deliveryMode(RandomGenerator r) {
    checkSource(r);
    return pick(r, DeliveryMode.values());
  }

  /** @param r the random source @return an access kind, uniformly */
  public static AccessKind accessKind(RandomGenerator r) {
    checkSource(r);
    return pick(r, AccessKind.values());
  }

  /** @param r the random source @return a status, uniformly */
  public static Status status(RandomGenerator r) {
    checkSource(r);
    return pick(r, Status.values());
  }

  /** @param r the random source @return a packet kind, uniformly */
  public static PacketKind packetKind(RandomGenerator r) {
    checkSource(r);
    return pick(r, PacketKind.values());
  }

  /** @param r the random source @return a payload length 0..64, favouring 0, 1, 8 and 64 */
  public static int payloadLength(RandomGenerator r) {
    checkSource(r);
    int[] edges = {0, 1, 8, WireFormat.MAX_PAYLOAD};
    return r.nextInt(100) < Edges.EDGE_PERCENT ? edges[r.nextInt(edges.length)]
        : r.nextInt(WireFormat.MAX_PAYLOAD + 1);
  }

  /**
   * A request (PUT with random bytes, GET, or AMO) between two nodes of a system.
   *
   * @param r the random source
   * @param nodeCount nodes in the system, 1 to 2^18; source and destination are below it
   * @return a new packet (packets are mutable: never share one between tests)
   */
  public static Packet request(RandomGenerator r, int nodeCount) {
    checkSource(r);
    return request(r, nodeCount, r.nextInt(3));
  }

  private static Packet request(RandomGenerator r, int nodeCount, int which) {
    int src = nodeId(r, nodeCount);
    NetworkAddress target = new NetworkAddress(nodeId(r, nodeCount), mdh(r), offset(r));
    int tag = r.nextInt();
    DeliveryMode mode = deliveryMode(r);
    int ptag = protectionTag(r);
    int pkey = protectionKey(r);
    return switch (which) {
      case 0 -> {
        byte[] data = new byte[payloadLength(r)];
        r.nextBytes(data);
        yield Packet.put(src, target, tag, mode, data, ptag, pkey);
      }
      case 1 -> Packet.get(src, target, tag, mode, Math.max(1, payloadLength(r)), ptag, pkey);
      default -> Packet.amo(src, target, tag, mode, amoOperation(r), r.nextLong(), r.nextLong(), ptag, pkey);
    };
  }

  /**
   * A packet of any kind: a request, a response answering one (ACK, data, AMO result, error), or a collective-engine
   * contribution or result.
   *
   * @param r the random source
   * @param nodeCount nodes in the system, 1 to 2^18
   * @return a new packet
   */
  public static Packet packet(RandomGenerator r, int nodeCount) {
    checkSource(r);
    PacketKind kind = packetKind(r);
    return switch (kind) {
      case PUT_REQUEST -> request(r, nodeCount, 0);
      case GET_REQUEST -> request(r, nodeCount, 1);
      case AMO_REQUEST -> request(r, nodeCount, 2);
      case ACK_RESPONSE -> Packet.ack(request(r, nodeCount, 0));
      case DATA_RESPONSE -> {
        Packet get = request(r, nodeCount, 1);
        byte[] data = new byte[get.dataLength()];
        r.nextBytes(data);
        yield Packet.data(get, data);
      }
      case AMO_RESPONSE -> {
        Packet amo;
        do {
          amo = request(r, nodeCount, 2);
        } while (!amo.amo().fetching());
        yield Packet.amoResult(amo, r.nextLong());
      }
      case ERROR_RESPONSE -> {
        Status s;
        do {
          s = status(r);
        } while (!s.isError());
        yield Packet.error(request(r, nodeCount, r.nextInt(3)), s);
      }
      case CE_CONTRIBUTION, CE_RESULT -> Packet.collective(kind, nodeId(r, nodeCount), nodeId(r, nodeCount),
          r.nextInt(4), r.nextLong(Packet.MAX_REDUCTION_ID + 1), r.nextInt(), deliveryMode(r), r.nextLong(),
          r.nextLong(), status(r));
    };
  }

  private static <T> T pick(RandomGenerator r, T[] values) {
    return values[r.nextInt(values.length)];
  }

  /** Names a null random source (it was a bare NullPointerException from the first draw). */
  private static void checkSource(RandomGenerator r) {
    if (r == null) {
      throw new IllegalArgumentException("r must not be null");
    }
  }

  static void checkNodeCount(int nodeCount) {
    if (nodeCount < 1 || nodeCount > NetworkAddress.MAX_NODE_ID + 1) {
      throw new IllegalArgumentException("nodeCount must be in [1, 262144] but was " + nodeCount);
    }
  }
}
