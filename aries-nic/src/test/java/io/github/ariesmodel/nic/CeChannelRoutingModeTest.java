package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.DeliveryMode;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A collective-engine channel has four routing modes ({@code GNI_CE_MODE_RC_NMIN_HASH}, {@code _MIN_HASH},
 * {@code _MNON_HASH}, {@code _ADAPT} [S5]): the deterministic modes are kept and every adaptive one becomes the
 * channel's one ADAPT, ADAPTIVE_0.
 */
class CeChannelRoutingModeTest {

  private static final CeChannelConfig BASE = CeChannelConfig.of(List.of(CeChild.pe(), CeChild.channel(1, 0)), null);

  @Test
  void everyAdaptiveModeBecomesAdaptive0AndTheOthersAreKept() {
    for (DeliveryMode m : DeliveryMode.values()) {
      DeliveryMode want = m.adaptive() ? DeliveryMode.ADAPTIVE_0 : m;
      assertThat(BASE.withDeliveryMode(m).deliveryMode()).as("withDeliveryMode(%s)", m).isEqualTo(want);
      assertThat(new CeChannelConfig(BASE.children(), null, CeRounding.NEAREST, m).deliveryMode())
          .as("constructor with %s", m).isEqualTo(want);
    }
  }

  @Test
  void eachModeNamesItsUgniChannelModeBit() {
    assertThat(BASE.withDeliveryMode(DeliveryMode.NMIN_HASH).gniRoutingMode()).isEqualTo(0x080);
    assertThat(BASE.withDeliveryMode(DeliveryMode.MIN_HASH).gniRoutingMode()).isEqualTo(0x100);
    assertThat(BASE.withDeliveryMode(DeliveryMode.IN_ORDER).gniRoutingMode()).isEqualTo(0x200);
    for (DeliveryMode m : List.of(DeliveryMode.ADAPTIVE_0, DeliveryMode.ADAPTIVE_1, DeliveryMode.ADAPTIVE_2,
        DeliveryMode.ADAPTIVE_3)) {
      assertThat(BASE.withDeliveryMode(m).gniRoutingMode()).as("%s", m).isEqualTo(0x400);
    }
  }
}
