package org.example.modular;

import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.NetworkAddresses;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.shmem.ShmemJob;
import io.github.ariesmodel.system.shmem.Symmetric;

/** The README's first two snippets, as a module's code: an address, and a SHMEM counter on two Aries groups. */
public final class FirstSteps {

  private FirstSteps() {}

  /**
   * The README's address snippet.
   *
   * @return node, MDH and offset of {@code 12:7:0x1f40}, and its allocation-free endpoint
   */
  public static long[] address() {
    NetworkAddress a = NetworkAddress.parse("12:7:0x1f40");
    return new long[] {a.nodeId(), a.mdh(), a.offset(), NetworkAddresses.endpoint(12, 7)};
  }

  /**
   * The README's SHMEM snippet: three PEs add 1 to a counter on PE 0, then a barrier.
   *
   * @return the counter PE 0 reads after the barrier
   */
  public static long counter() {
    AriesSystem system = AriesSystem.builder().system("two-groups").routing("adaptive0").seed(42).build();
    ShmemJob job = ShmemJob.builder(system).nodes(0, 4, 384).pageSize(PageSize.SIZE_2M).build();
    Symmetric counter = job.allocate(8);
    long[] seen = new long[1];
    job.run(pe -> {
      pe.atomicFetchAdd(counter, 0, 1, 0);
      pe.barrierAll();
      if (pe.myPe() == 0) {
        seen[0] = pe.localLong(counter, 0);
      }
    });
    return seen[0];
  }

  /**
   * Prints both snippets' results, one line each, for a run on the module path
   * ({@code java -p target/classes:target/lib -m org.example.modular/org.example.modular.FirstSteps}).
   *
   * @param args none
   */
  public static void main(String[] args) {
    long[] a = address();
    System.out.println("address " + a[0] + " " + a[1] + " " + a[2] + " " + a[3]);
    System.out.println("counter " + counter());
  }
}
