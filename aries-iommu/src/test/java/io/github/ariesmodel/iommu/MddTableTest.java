package io.github.ariesmodel.iommu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.PageSize;
import org.junit.jupiter.api.Test;

/** The MDD table alone: handles round-robin, descriptors and table roots by MDH, invalidation, caller mistakes. */
class MddTableTest {

  private static MemoryDomainDescriptor mdd(int mdh) {
    return new MemoryDomainDescriptor(mdh, true, 0, 1 << 20, true, 7, 1234, 0, PageSize.SIZE_4K,
        MemoryDomainDescriptor.NO_CQ, false);
  }

  private static void register(MddTable t, int mdh) {
    t.put(mdd(mdh), new PageTableBuilder.Tables(1000L * mdh, 2000L * mdh, 3000L * mdh, 4L * mdh, 8));
  }

  @Test
  void keepsEachDescriptorWithItsOwnTableRoots() {
    MddTable t = new MddTable();
    assertThat(t.get(0)).isNull();
    assertThat(t.get(4095)).isNull();
    register(t, 5);
    register(t, 300);
    assertThat(t.get(5)).isEqualTo(mdd(5));
    assertThat(t.get(300)).isEqualTo(mdd(300));
    assertThat(t.get(6)).isNull();
    assertThat(t.dataBase(300)).isEqualTo(300_000);
    assertThat(t.directoryBase(300)).isEqualTo(600_000);
    assertThat(t.leafBase(300)).isEqualTo(900_000);
    assertThat(t.firstPage(300)).isEqualTo(1200);
    assertThat(t.pageEnd(300)).isEqualTo(1208);
    assertThat(t.tables(300)).isEqualTo(new PageTableBuilder.Tables(300_000, 600_000, 900_000, 1200, 8));
    assertThat(t.dataBase(5)).isEqualTo(5000);
  }

  @Test
  void handlesAreRoundRobinAndSkipValidDescriptors() {
    MddTable t = new MddTable();
    for (int i = 0; i < 3; i++) {
      int mdh = t.freeMdh();
      assertThat(mdh).isEqualTo(i);
      register(t, mdh);
    }
    t.invalidate(1);
    assertThat(t.get(1).valid()).isFalse();
    // A freed handle is not reused at once: the search goes on from the last one given.
    assertThat(t.freeMdh()).isEqualTo(3);
  }

  @Test
  void aFreeHandleIsHandedOutAgainUntilItIsStored() {
    // A registration that asks for an MDH and then fails must not move the search on.
    MddTable t = new MddTable();
    assertThat(t.freeMdh()).isZero();
    assertThat(t.freeMdh()).isZero();
    register(t, 0);
    assertThat(t.freeMdh()).isEqualTo(1);
  }

  @Test
  void wrapsAroundToAnInvalidatedHandleAndRefusesWhenFull() {
    MddTable t = new MddTable();
    for (int i = 0; i < MddTable.CAPACITY; i++) {
      register(t, t.freeMdh());
    }
    assertThatThrownBy(t::freeMdh).isInstanceOf(IllegalStateException.class).hasMessageContaining("4096");
    t.invalidate(17);
    assertThat(t.freeMdh()).isEqualTo(17);
  }

  @Test
  void callerMistakesNameTheHandle() {
    MddTable t = new MddTable();
    assertThatThrownBy(() -> t.registered(9)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("mdh 9 was never registered");
    assertThatThrownBy(() -> t.invalidate(9)).hasMessageContaining("mdh 9 is not registered");
    assertThatThrownBy(() -> t.registered(4096)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("4096");
    assertThatThrownBy(() -> t.known(9)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("mdh 9 was never registered");
    register(t, 9);
    assertThat(t.registered(9).valid()).isTrue();
    t.invalidate(9);
    // A deregistered handle is known (its last registration can be asked about) but not registered.
    assertThat(t.known(9).valid()).isFalse();
    assertThatThrownBy(() -> t.registered(9)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("mdh 9 is not registered (it was deregistered)");
    assertThatThrownBy(() -> t.invalidate(9)).hasMessageContaining("mdh 9 is not registered");
  }
}
