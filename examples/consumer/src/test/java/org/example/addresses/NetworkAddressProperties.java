package org.example.addresses;

import static org.quicktheories.QuickTheory.qt;

import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.testkit.gen.CoreGenerators;
import org.junit.jupiter.api.Test;

/**
 * Property tests with the testkit's generators (biased toward the edges of each field). Named {@code *Properties}, as
 * the project names them: the pom's surefire includes pick this class up; surefire's defaults would skip it.
 */
class NetworkAddressProperties {

  @Test
  void theWireFormatRoundTrips() {
    qt().forAll(CoreGenerators.networkAddresses())
        .check(a -> NetworkAddress.fromWire(a.toWire()).equals(a) && a.toWire().length == NetworkAddress.WIRE_BYTES);
  }

  @Test
  void theTextFormRoundTrips() {
    qt().forAll(CoreGenerators.networkAddresses()).check(a -> NetworkAddress.parse(a.toString()).equals(a));
  }

  @Test
  void theEndpointDependsOnNodeAndMdhOnly() {
    qt().forAll(CoreGenerators.networkAddresses(), CoreGenerators.offsets())
        .check((a, offset) -> NetworkAddress.of(a.nodeId(), a.mdh(), offset).endpoint() == a.endpoint());
  }
}
