package io.github.ariesmodel.testkit.network;

import org.junit.jupiter.api.Nested;

/** Every built-in routing meets the routing contract. */
class BuiltInRoutingsContractTest {

  @Nested
  class Minimal extends RoutingContract {
    @Override
    protected String routingName() {
      return "minimal";
    }
  }

  @Nested
  class InOrder extends RoutingContract {
    @Override
    protected String routingName() {
      return "in-order";
    }
  }

  @Nested
  class Valiant extends RoutingContract {
    @Override
    protected String routingName() {
      return "valiant";
    }
  }

  @Nested
  class NminHash extends RoutingContract {
    @Override
    protected String routingName() {
      return "nmin-hash";
    }
  }

  @Nested
  class Ugal extends RoutingContract {
    @Override
    protected String routingName() {
      return "ugal";
    }
  }

  @Nested
  class Adaptive0 extends RoutingContract {
    @Override
    protected String routingName() {
      return "adaptive0";
    }
  }

  @Nested
  class Adaptive1 extends RoutingContract {
    @Override
    protected String routingName() {
      return "adaptive1";
    }
  }

  @Nested
  class Adaptive2 extends RoutingContract {
    @Override
    protected String routingName() {
      return "adaptive2";
    }
  }

  @Nested
  class Adaptive3 extends RoutingContract {
    @Override
    protected String routingName() {
      return "adaptive3";
    }
  }
}
