package io.github.ariesmodel.cli.report;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * What was run, on what, and how long it took. Immutable; build with {@link #builder(String, String)}.
 *
 * @param tool name and version of the tool that made the results, e.g. {@code aries-model 0.1.0}
 * @param build the build that made them (version and commit), or {@code null} when not known (a file written before
 *     the field existed); the builder starts with {@link BuildInfo#current()}
 * @param command the command or job that made them, e.g. {@code run pingpong --system default}
 * @param system the simulated system's name, or {@code null} when not applicable
 * @param routing the routing algorithm's name, or {@code null} when not applicable
 * @param fabric the network's kind ({@code routers}, {@code ideal}), or {@code null} when not applicable or not known
 * @param translator the address translation's kind ({@code iommu}, {@code flat}), or {@code null} when not applicable
 *     (the run built no node, so nothing was translated: {@code traffic}) or not known
 * @param nic the NIC settings that differ from the defaults, by configuration-file key, in key order (empty: the
 *     defaults), or {@code null} when not applicable (the run built no node, so no NIC) or not known
 * @param iommu the IOMMU settings that differ from the defaults, as {@code nic}, or {@code null} when there is no IOMMU
 *     (the flat translator, or no node built) or they are not known
 * @param seed the random seed, or {@code null} when the results do not come from one seeded run (a merged sweep)
 * @param parameters named parameters of the run (a sweep point's coordinates, workload settings), in insertion order
 * @param sweep where the run sits in a sweep, or {@code null} when it is not a sweep point
 * @param simulatedTimePs simulated time covered, picoseconds, {@code >= 0}
 * @param events discrete events executed, {@code >= 0}
 * @param wallClock wall-clock start and finish, or {@code null} when left out for reproducible output
 */
public record RunMetadata(
    String tool,
    BuildInfo build,
    String command,
    String system,
    String routing,
    String fabric,
    String translator,
    Map<String, String> nic,
    Map<String, String> iommu,
    Long seed,
    Map<String, String> parameters,
    SweepCoordinates sweep,
    long simulatedTimePs,
    long events,
    WallClock wallClock) {

  /**
   * Validates the metadata and freezes the parameters and settings, keeping their order.
   *
   * @throws IllegalArgumentException when tool or command is empty, a count is negative or a parameter or setting
   *     name is empty
   */
  public RunMetadata {
    Names.checkText("tool", tool);
    Names.checkText("command", command);
    if (simulatedTimePs < 0) {
      throw new IllegalArgumentException("simulatedTimePs must be >= 0 but was " + simulatedTimePs);
    }
    if (events < 0) {
      throw new IllegalArgumentException("events must be >= 0 but was " + events);
    }
    parameters = frozen("parameter", Objects.requireNonNull(parameters, "parameters"));
    nic = nic == null ? null : frozen("nic setting", nic);
    iommu = iommu == null ? null : frozen("iommu setting", iommu);
  }

  private static Map<String, String> frozen(String what, Map<String, String> values) {
    LinkedHashMap<String, String> copy = new LinkedHashMap<>();
    values.forEach((k, v) -> {
      Names.checkText(what + " name", k);
      copy.put(k, Objects.requireNonNull(v, () -> "value of " + what + " " + k));
    });
    return Collections.unmodifiableMap(copy);
  }

  /**
   * Starts metadata with the two required fields.
   *
   * @param tool tool name and version
   * @param command command or job
   * @return a builder
   */
  public static Builder builder(String tool, String command) {
    return new Builder(tool, command);
  }

  /**
   * The name and version of this build of the tool, for {@link #tool()}: {@code aries-model <version>} from the jar
   * manifest, or {@code aries-model (development build)} when run from classes.
   *
   * @return the tool string
   */
  public static String currentTool() {
    String v = RunMetadata.class.getPackage().getImplementationVersion();
    return "aries-model " + (v == null ? "(development build)" : v);
  }

  /** @return a builder holding this metadata's fields */
  public Builder toBuilder() {
    Builder b = new Builder(tool, command);
    b.build = build;
    b.system = system;
    b.routing = routing;
    b.fabric = fabric;
    b.translator = translator;
    b.nic = nic;
    b.iommu = iommu;
    b.seed = seed;
    b.parameters.putAll(parameters);
    b.sweep = sweep;
    b.simulatedTimePs = simulatedTimePs;
    b.events = events;
    b.wallClock = wallClock;
    return b;
  }

  /** @return wall-clock seconds of the run, empty when the wall clock was left out */
  public OptionalDouble wallSeconds() {
    return wallClock == null ? OptionalDouble.empty() : OptionalDouble.of(wallClock.wallSeconds());
  }

  /** @return events per wall-clock second, empty when the wall clock was left out or took no measurable time */
  public OptionalDouble eventsPerSecond() {
    if (wallClock == null || wallClock.wallSeconds() <= 0) {
      return OptionalDouble.empty();
    }
    return OptionalDouble.of(events / wallClock.wallSeconds());
  }

  /** Builds {@link RunMetadata}; optional fields default to null, zero or empty. */
  public static final class Builder {
    private String tool;
    private BuildInfo build = BuildInfo.current();
    private String command;
    private String system;
    private String routing;
    private String fabric;
    private String translator;
    private Map<String, String> nic;
    private Map<String, String> iommu;
    private Long seed;
    private final Map<String, String> parameters = new LinkedHashMap<>();
    private SweepCoordinates sweep;
    private long simulatedTimePs;
    private long events;
    private WallClock wallClock;

    private Builder(String tool, String command) {
      this.tool = tool;
      this.command = command;
    }

    /**
     * @param value tool name and version
     * @return this builder
     */
    public Builder tool(String value) {
      this.tool = value;
      return this;
    }

    /**
     * @param value the build that made the results, or null when not known
     * @return this builder
     */
    public Builder build(BuildInfo value) {
      this.build = value;
      return this;
    }

    /**
     * @param value command or job
     * @return this builder
     */
    public Builder command(String value) {
      this.command = value;
      return this;
    }

    /**
     * @param value system name, or null
     * @return this builder
     */
    public Builder system(String value) {
      this.system = value;
      return this;
    }

    /**
     * @param value routing name, or null
     * @return this builder
     */
    public Builder routing(String value) {
      this.routing = value;
      return this;
    }

    /**
     * @param value fabric kind ({@code routers}, {@code ideal}), or null
     * @return this builder
     */
    public Builder fabric(String value) {
      this.fabric = value;
      return this;
    }

    /**
     * @param value translator kind ({@code iommu}, {@code flat}), or null
     * @return this builder
     */
    public Builder translator(String value) {
      this.translator = value;
      return this;
    }

    /**
     * @param value the NIC settings that differ from the defaults, by configuration-file key, or null
     * @return this builder
     */
    public Builder nic(Map<String, String> value) {
      this.nic = value;
      return this;
    }

    /**
     * @param value the IOMMU settings that differ from the defaults, by configuration-file key, or null
     * @return this builder
     */
    public Builder iommu(Map<String, String> value) {
      this.iommu = value;
      return this;
    }

    /**
     * @param value seed, or null
     * @return this builder
     */
    public Builder seed(Long value) {
      this.seed = value;
      return this;
    }

    /**
     * Adds or replaces one parameter.
     *
     * @param name parameter name
     * @param value its value
     * @return this builder
     */
    public Builder parameter(String name, String value) {
      this.parameters.put(name, value);
      return this;
    }

    /**
     * Adds or replaces parameters, in the map's iteration order.
     *
     * @param values parameters
     * @return this builder
     */
    public Builder parameters(Map<String, String> values) {
      this.parameters.putAll(values);
      return this;
    }

    /**
     * Removes every parameter.
     *
     * @return this builder
     */
    public Builder clearParameters() {
      this.parameters.clear();
      return this;
    }

    /**
     * @param value sweep coordinates, or null
     * @return this builder
     */
    public Builder sweep(SweepCoordinates value) {
      this.sweep = value;
      return this;
    }

    /**
     * @param value simulated picoseconds
     * @return this builder
     */
    public Builder simulatedTimePs(long value) {
      this.simulatedTimePs = value;
      return this;
    }

    /**
     * @param value events executed
     * @return this builder
     */
    public Builder events(long value) {
      this.events = value;
      return this;
    }

    /**
     * @param value wall-clock interval, or null
     * @return this builder
     */
    public Builder wallClock(WallClock value) {
      this.wallClock = value;
      return this;
    }

    /**
     * Builds the metadata.
     *
     * @return the metadata
     * @throws IllegalArgumentException when a field is invalid
     */
    public RunMetadata build() {
      return new RunMetadata(tool, build, command, system, routing, fabric, translator, nic, iommu, seed, parameters,
          sweep, simulatedTimePs, events, wallClock);
    }
  }
}
