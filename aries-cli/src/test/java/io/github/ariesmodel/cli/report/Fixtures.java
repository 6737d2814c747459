package io.github.ariesmodel.cli.report;

import java.time.Instant;

/** Results used by several tests. */
final class Fixtures {
  private Fixtures() {}

  static Results sample(boolean wallClock) {
    RunMetadata.Builder m = RunMetadata.builder("aries-model test", "run pingpong --system default")
        .system("default")
        .routing("ugal")
        .fabric("routers")
        .translator("iommu")
        .nic(java.util.Map.of("requestTags", "32"))
        .iommu(java.util.Map.of())
        .seed(42L)
        .parameter("size", "8")
        .parameter("note", "quotes \" and <tags> & commas, é")
        .simulatedTimePs(123_456_789L)
        .events(1_000_000L);
    if (wallClock) {
      m.wallClock(new WallClock(Instant.parse("2026-11-29T21:00:00Z"), Instant.parse("2026-11-29T21:00:02.5Z")));
    }
    return Results.builder(m.build())
        .metric("latency.mean", 812.25, "ns")
        .metric("hit-rate", 0.97, "")
        .table(ResultTable.builder("latency-by-size")
            .integer("size", "B").number("latency", "ns").string("routing")
            .row(8, 812.25, "ugal")
            .row(64L, 840.0, "min,imal \"x\"")
            .row(1 << 20, null, null)
            .build())
        .table(ResultTable.builder("empty").number("x", "").build())
        .build();
  }
}
