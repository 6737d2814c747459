package io.github.ariesmodel.cli.config;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.TSFBuilder;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import io.github.ariesmodel.core.Texts;
import io.github.ariesmodel.core.SimTime;
import io.github.ariesmodel.iommu.ReplacementPolicies;
import io.github.ariesmodel.iommu.IommuConfig;
import io.github.ariesmodel.iommu.PageTables;
import io.github.ariesmodel.system.TranslatorKind;
import io.github.ariesmodel.nic.AmoCacheConfig;
import io.github.ariesmodel.nic.AmoWriteBack;
import io.github.ariesmodel.nic.NicConfig;
import io.github.ariesmodel.nic.NicTiming;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.cli.workload.Params;
import io.github.ariesmodel.cli.workload.Workloads;
import io.github.ariesmodel.cli.system.RecordedSettings;
import io.github.ariesmodel.cli.system.SystemSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * A run described in a configuration file, JSON or YAML (chosen by the file's extension: {@code .yaml}/{@code .yml}
 * or {@code .json}). Every key is optional; an unknown key or a value out of range is an error that names the key
 * (as a dotted path), the allowed values or range, and the value.
 *
 * <pre>
 * system: two-groups          # a preset or topology spec
 * routing: adaptive0          # or by-delivery-mode (default)
 * seed: 7
 * fabric: routers             # or ideal
 * translator: iommu           # or flat
 * threads: 2                 # the partitioned engine on 2 threads, as run --threads 2 (absent: the single loop)
 * iommu: {ways: 4, sets: 32, ptesPerLine: 8, policy: lru, maxInFlight: 32, fetchBuffers: 8,
 *         pteFetchLatencyNs: 500, hitLatencyNs: 5, issueIntervalNs: 1.25, prefetch: true,
 *         pageTables: per-registration}   # or per-context (the hardware's shape, docs/iommu.md)
 * nic: {requestTags: 64, bteChannels: 3, fmaBteThreshold: 4096, amoRequestList: 64,
 *       clockMHz: 800, packetCycles: 5, hostGBps: 16, hostLatencyNs: 250, hostReadLatencyNs: 500,
 *       hostOverheadBytes: 24, amoCacheEntries: 64, amoCacheWriteBack: idle}   # or eviction; entries 0: no AMO cache
 * workload: pingpong
 * params: {sizes: "8,64,4K", iterations: 5}
 * </pre>
 *
 * @param spec the system spec, its {@link SystemSpec#threads()} the file's {@code threads} (0 when absent: the single
 *     event loop)
 * @param workload the workload name, or null when the file names none
 * @param params the workload's parameters
 * @param iommuGiven whether the file has an {@code iommu} mapping (its values may equal the defaults)
 * @param nodeSettings the node settings the file gives: {@code translator} if it names one, then its {@code nic} and
 *     {@code iommu} settings as dotted keys ({@code nic.requestTags}), nic's then iommu's, each in the file's order; a
 *     mapping with none as its own name ({@code nic}); empty when the file gives none
 */
public record RunConfig(SystemSpec spec, String workload, Params params, boolean iommuGiven,
    List<String> nodeSettings) {

  /** Copies the settings' list. */
  public RunConfig {
    nodeSettings = List.copyOf(nodeSettings);
  }

  private static final Set<String> TOP = Set.of("system", "routing", "seed", "fabric", "translator", "threads", "iommu",
      "nic", "workload", "params");

  /**
   * Most threads of the partitioned engine, in a file's {@code threads} and on the command line's {@code --threads}
   * (assumed: far above any machine's cores and any system's groups, which cap the threads used).
   */
  public static final int MAX_THREADS = 4096;
  /** The keys of {@code iommu} and {@code nic}: the ones a run's results record them by. */
  private static final Set<String> IOMMU = RecordedSettings.IOMMU_KEYS;
  private static final Set<String> NIC = RecordedSettings.NIC_KEYS;

  /**
   * Reads a configuration file.
   *
   * @param file a {@code .json}, {@code .yaml} or {@code .yml} file
   * @return the configuration
   * @throws IOException when the file cannot be read or parsed, holds a duplicate key, nests deeper than
   *     {@link #MAX_NESTING} or has a number longer than {@link #MAX_NUMBER_CHARS} characters
   * @throws IllegalArgumentException naming the key, the allowed values and the value when a setting is wrong; when
   *     the file is larger than {@link #MAX_FILE_BYTES}; when a YAML file uses anchors or aliases, or writes a number
   *     other than in plain decimal ({@code 010}, {@code 0x10}, {@code 1_000}; YAML 1.1 reads {@code 010} as octal 8)
   */
  public static RunConfig read(Path file) throws IOException {
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    boolean yaml = name.endsWith(".yaml") || name.endsWith(".yml");
    if (!yaml && !name.endsWith(".json")) {
      throw new IllegalArgumentException("config file must end in .json, .yaml or .yml but was "
          + Texts.abbreviate(file.toString()));
    }
    long size = Files.size(file);
    if (size > MAX_FILE_BYTES) {
      throw new IllegalArgumentException("a configuration file may hold at most " + MAX_FILE_BYTES + " bytes but "
          + Texts.abbreviate(file.toString()) + " holds " + size);
    }
    String text = Files.readString(file);
    if (text.startsWith("\uFEFF")) {
      // a byte-order mark, as editors on Windows write one: the YAML parser skipped it, the JSON parser refused it as
      // "Unexpected character (U+FEFF ...)" (until stop 73)
      text = text.substring(1);
    }
    ObjectMapper mapper = yaml ? new ObjectMapper(strict(YAMLFactory.builder()).build())
        : new ObjectMapper(strict(JsonFactory.builder()).build());
    mapper.enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);
    // anything after the configuration (text after a JSON object, a second YAML document) is an error: it was dropped
    // without a word, a second document's workload included
    mapper.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    if (yaml) {
      refuseYamlOnlyForms(mapper, text, file);
    }
    JsonNode root = mapper.readTree(text);
    try {
      return from(root);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
    }
  }

  /** Largest configuration file read: a run's settings fit in a few kilobytes. */
  public static final long MAX_FILE_BYTES = 1 << 20;

  /** Deepest nesting of a configuration: the schema uses two levels. */
  public static final int MAX_NESTING = 16;

  /** Longest number literal accepted: enough for any long or double. */
  public static final int MAX_NUMBER_CHARS = 40;

  /**
   * Duplicate keys are errors (a later value silently replacing an earlier one hides a typo); nesting and number
   * length are bounded so that a hostile file fails with one line instead of exhausting the stack or the CPU.
   */
  private static <F extends TSFBuilder<?, ?>> F strict(F builder) {
    builder.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION);
    builder.streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING)
        .maxNumberLength(MAX_NUMBER_CHARS).build());
    return builder;
  }

  /**
   * Refuses what YAML reads differently from JSON and the command line, in one walk over the file's tokens.
   *
   * <p>Anchors and aliases: Jackson reads an alias as the literal anchor name, which would silently give a setting
   * the wrong value, and the schema has nothing worth sharing.
   *
   * <p>Numbers not written in plain decimal: Jackson's YAML parser follows YAML 1.1, so {@code seed: 010} ran with
   * seed 8 (octal), {@code 0b101} with 5, {@code 0x10} with 16 and {@code 1_000} with 1000, where JSON refuses all
   * of them and the command line reads {@code --seed 010} as 10; and an unquoted {@code 08}, no octal number, became
   * the text "08" (until stop 73). A value written so is refused, naming the key and the line, whether the parser
   * made a number of it or plain text of a number's shape; a quoted or tagged value is text the user meant as such.
   */
  private static void refuseYamlOnlyForms(ObjectMapper mapper, String text, Path file) throws IOException {
    try (JsonParser p = mapper.getFactory().createParser(text)) {
      YAMLParser y = (YAMLParser) p;
      JsonToken t;
      while ((t = y.nextToken()) != null) {
        if (y.isCurrentAlias() || y.getObjectId() != null) {
          throw new IllegalArgumentException(file + ": YAML anchors and aliases (&name, *name) are not supported;"
              + " write the value out (line " + y.currentLocation().getLineNr() + ")");
        }
        String reading = nonDecimalReading(y, t, text);
        if (reading != null) {
          throw new IllegalArgumentException(file + ": " + keyOf(y.getParsingContext()) + " is written "
              + Texts.abbreviate(y.getText()) + " (line " + y.currentTokenLocation().getLineNr() + "), which YAML 1.1"
              + " reads as " + reading + "; write the number in decimal, or quote it if a string is meant");
        }
      }
    }
  }

  /** An integer in plain decimal, as JSON and the command line write it. */
  private static final Pattern DECIMAL_INTEGER = Pattern.compile("[-+]?(0|[1-9][0-9]*)");

  /** Text YAML 1.1 would take for a number in another base, or that only looks like one (an octal 08). */
  private static final Pattern NUMBER_SHAPED_TEXT =
      Pattern.compile("[-+]?(0[0-9_]+|0[bB][01_]+|0[oO][0-7_]+|0[xX][0-9a-fA-F_]+)");

  /**
   * @return what the parser made of the current scalar when it is a number not written in plain decimal ("octal 8",
   *     "the text \"08\""), else null
   */
  private static String nonDecimalReading(YAMLParser y, JsonToken t, String text) throws IOException {
    String written = y.getText();
    if (t == JsonToken.VALUE_NUMBER_INT) {
      if (DECIMAL_INTEGER.matcher(written).matches()) {
        return null;
      }
      String digits = written.replaceFirst("^[-+]", "");
      String base = digits.startsWith("0x") || digits.startsWith("0X") ? "hexadecimal "
          : digits.startsWith("0b") || digits.startsWith("0B") ? "binary "
          : digits.startsWith("0") && digits.length() > 1 ? "octal " : "";
      return base + y.getNumberValue() + (written.indexOf('_') >= 0 ? " (its _ dropped)" : "");
    }
    if (t == JsonToken.VALUE_NUMBER_FLOAT) {
      return written.indexOf('_') >= 0 ? y.getNumberValue() + " (its _ dropped)" : null;
    }
    if (t == JsonToken.VALUE_STRING && NUMBER_SHAPED_TEXT.matcher(written).matches()
        && plain(text, y.currentTokenLocation().getCharOffset())) {
      return "the text \"" + written + "\", not a number";
    }
    return null;
  }

  /**
   * @return whether the scalar at this offset of the file is written plain: not quoted, not tagged ({@code !!str}),
   *     not a block scalar ({@code |}, {@code >})
   */
  private static boolean plain(String text, long offset) {
    if (offset < 0 || offset >= text.length()) {
      return true;
    }
    char c = text.charAt((int) offset);
    return c != '"' && c != '\'' && c != '!' && c != '|' && c != '>';
  }

  /** @return the dotted key of the current value ({@code params.pes}, {@code params.sizes[1]}) */
  private static String keyOf(JsonStreamContext c) {
    if (c == null || c.inRoot()) {
      return "(top level)";
    }
    String parent = c.getParent() == null || c.getParent().inRoot() ? "" : keyOf(c.getParent());
    if (c.inArray()) {
      return parent + "[" + c.getCurrentIndex() + "]";
    }
    return parent.isEmpty() ? c.getCurrentName() : parent + "." + c.getCurrentName();
  }

  /**
   * Builds a configuration from a parsed tree.
   *
   * @param root the document's root, an object (or null/empty for all defaults)
   * @return the configuration
   */
  public static RunConfig from(JsonNode root) {
    if (root == null || root.isNull() || root.isMissingNode()) {
      return new RunConfig(SystemSpec.of("default", 1), null, Params.none(), false, List.of());
    }
    object(root, "(top level)");
    checkKeys(root, "", TOP);
    String system = text(root, "system", "default");
    String routing = text(root, "routing", AriesSystem.Builder.BY_DELIVERY_MODE);
    long seed = integer(root, "seed", 1, Long.MIN_VALUE, Long.MAX_VALUE);
    String fabric = text(root, "fabric", "routers");
    String translator = text(root, "translator", "iommu");
    // the engine a record with "simulationEngine" : "partitioned" ran on: until stop 78 no file could say it, so such a
    // run was repeated only with --threads on the command line
    int threads = (int) integer(root, "threads", 0, 1, MAX_THREADS);
    if (root.has("iommu") && SystemSpec.parseTranslator(translator) != TranslatorKind.IOMMU) {
      // the flat translator has no IOMMU: its settings would be dropped without a word
      throw new IllegalArgumentException("iommu settings are for the IOMMU translator but translator is "
          + Texts.abbreviate(translator) + "; drop one of them");
    }
    IommuConfig iommu = iommu(asRecorded(root.get("iommu"), IOMMU_TEXT_KEYS));
    NicConfig nic = nic(asRecorded(root.get("nic"), NIC_TEXT_KEYS));
    SystemSpec spec;
    try {
      spec = new SystemSpec(system, routing, seed, SystemSpec.parseFabric(fabric),
          SystemSpec.parseTranslator(translator), iommu, nic, null).withThreads(threads);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    String workload = root.has("workload") ? text(root, "workload", null) : null;
    Map<String, String> params = new LinkedHashMap<>();
    JsonNode p = root.get("params");
    if (p != null) {
      object(p, "params");
      for (Iterator<Map.Entry<String, JsonNode>> it = p.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        if (e.getValue().isNull()) {
          // (it was given to the workload as the text "null", and refused, if at all, for that word)
          throw new IllegalArgumentException("params." + e.getKey() + " has no value (null, or ~ or nothing in YAML);"
              + " give one, or leave the key out for its default");
        }
        if (!e.getValue().isValueNode()) {
          throw new IllegalArgumentException("params." + e.getKey() + " must be a single value but was "
              + Texts.abbreviate(e.getValue().toString()) + listForm(e.getValue()));
        }
        params.put(e.getKey(), e.getValue().asText());
      }
    }
    return new RunConfig(spec, workload, Params.of(params), root.has("iommu"), nodeSettings(root));
  }

  /**
   * The accepted form of a list a configuration wrote as a JSON or YAML list, {@code [1, 2]}: one string, the
   * workload's comma-separated list, {@code "1,2"} (until stop 71 the refusal did not say it).
   *
   * @return {@code ; a list is written as one string, "1,2"} for a list of single values, the same with an example
   *     for any other list, and nothing for what is not a list
   */
  private static String listForm(JsonNode value) {
    if (!value.isArray()) {
      return "";
    }
    List<String> items = new ArrayList<>();
    for (JsonNode item : value) {
      if (!item.isValueNode()) {
        return "; a list is written as one string of comma-separated values, e.g. \"1,2\"";
      }
      items.add(item.asText());
    }
    return "; a list is written as one string, " + Texts.abbreviate("\"" + String.join(",", items) + "\"");
  }

  /** @return the nic and iommu settings a checked configuration gives (see {@link #nodeSettings()}) */
  private static List<String> nodeSettings(JsonNode root) {
    List<String> given = new ArrayList<>();
    if (root.has("translator")) {
      given.add("translator"); // the nodes' translator: a run that builds no node has none
    }
    for (String mapping : List.of("nic", "iommu")) {
      JsonNode n = root.get(mapping);
      if (n == null) {
        continue;
      }
      if (n.isEmpty()) {
        given.add(mapping);
      }
      n.fieldNames().forEachRemaining(k -> given.add(mapping + "." + k));
    }
    return given;
  }

  /**
   * Refuses the configuration for a run of a workload that would ignore its {@code nic} and {@code iommu} settings
   * without a word: {@code traffic}, whose experiments drive router fabrics of their own and build no node, so no NIC
   * and no IOMMU (its results record none). Settings equal to the defaults are refused too: the file says they matter.
   *
   * @param workloadRun the name of the workload the run is of (the command line's, else the file's)
   * @throws IllegalArgumentException naming the settings and why, in one line
   */
  public void checkUsedBy(String workloadRun) {
    if (TRAFFIC.equals(workloadRun) && !nodeSettings.isEmpty()) {
      throw new IllegalArgumentException((nodeSettings.size() == 1 ? "setting " : "settings ")
          + abbreviated(nodeSettings) + " would be ignored: translator, nic and iommu settings configure the nodes'"
          + " translators, NICs and IOMMUs, and workload traffic builds no node (its experiments drive router fabrics"
          + " of their own); drop them, or run a workload that uses them");
    }
  }

  /** The workload that builds no node ({@link #checkUsedBy}). */
  private static final String TRAFFIC = Workloads.TRAFFIC.create().name();

  /** @return the first few settings, and how many more */
  private static String abbreviated(List<String> keys) {
    int shown = Math.min(keys.size(), 6);
    String s = String.join(", ", keys.subList(0, shown));
    return keys.size() > shown ? s + " and " + (keys.size() - shown) + " more" : s;
  }

  /** The {@code iommu} keys whose values are text; the rest are numbers and {@code prefetch} a boolean. */
  private static final Set<String> IOMMU_TEXT_KEYS = Set.of("policy", "pageTables");
  /** The {@code nic} keys whose values are text; the rest are numbers. */
  private static final Set<String> NIC_TEXT_KEYS = Set.of("amoCacheWriteBack");

  /** A number as {@code RecordedSettings} writes one ({@code Long.toString}, {@code Double.toString}): plain decimal. */
  private static final Pattern RECORDED_INTEGER = Pattern.compile("-?[0-9]{1,19}");
  private static final Pattern RECORDED_NUMBER = Pattern.compile("-?[0-9]+\\.[0-9]+(E-?[0-9]+)?");

  /**
   * A {@code nic} or {@code iommu} mapping with its values read as a results file records them: results.json's
   * {@code run.nic} and {@code run.iommu} hold every value as text ({@code "requestTags" : "32"}), so a configuration
   * made by copying them, as a JSON file is, was refused ("must be an integer ... but was \"32\"") and a run could
   * not be repeated from what it recorded (until stop 77; only unquoted YAML read them back). A text value of a
   * numeric key written as a number in plain decimal (the record's form) is read as that number, {@code "true"} and
   * {@code "false"} of {@code prefetch} as the boolean; any other text is left as it is, and refused as before.
   *
   * @param n the mapping, or null
   * @param textKeys its keys whose values are text
   * @return the mapping with recorded numbers and booleans typed, or {@code n} itself when it is not a mapping
   */
  private static JsonNode asRecorded(JsonNode n, Set<String> textKeys) {
    if (n == null || !n.isObject()) {
      return n;
    }
    com.fasterxml.jackson.databind.node.ObjectNode copy = ((com.fasterxml.jackson.databind.node.ObjectNode) n)
        .deepCopy();
    for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (!e.getValue().isTextual() || textKeys.contains(e.getKey())) {
        continue;
      }
      String v = e.getValue().asText();
      if (e.getKey().equals("prefetch")) {
        if (v.equals("true") || v.equals("false")) {
          copy.put(e.getKey(), Boolean.parseBoolean(v));
        }
      } else if (RECORDED_INTEGER.matcher(v).matches()) {
        try {
          copy.put(e.getKey(), Long.parseLong(v));
        } catch (NumberFormatException tooLarge) {
          // left as text: refused as out of range of an integer, naming the value
        }
      } else if (RECORDED_NUMBER.matcher(v).matches()) {
        double x = Double.parseDouble(v);
        if (Double.isFinite(x)) {
          copy.put(e.getKey(), x);
        }
      }
    }
    return copy;
  }

  private static IommuConfig iommu(JsonNode n) {
    if (n == null) {
      return IommuConfig.defaults();
    }
    object(n, "iommu");
    checkKeys(n, "iommu.", IOMMU);
    IommuConfig d = IommuConfig.defaults();
    IommuConfig.Builder b = d.toBuilder();
    b.ways((int) integer(n, "ways", d.ways(), 1, 64, "iommu."));
    b.sets((int) integer(n, "sets", d.sets(), 1, 1 << 20, "iommu."));
    b.ptesPerLine((int) integer(n, "ptesPerLine", d.ptesPerLine(), 1, 512, "iommu."));
    b.maxInFlight((int) integer(n, "maxInFlight", d.maxInFlight(), 1, 4096, "iommu."));
    b.fetchBuffers((int) integer(n, "fetchBuffers", d.fetchBuffers(), 1, 4096, "iommu."));
    b.seed(integer(n, "seed", d.seed(), Long.MIN_VALUE, Long.MAX_VALUE, "iommu."));
    b.pteFetchLatencyPs(SimTime.ns(number(n, "pteFetchLatencyNs", SimTime.toNs(d.pteFetchLatencyPs()), 0, 1e6,
        "iommu.")));
    b.hitLatencyPs(SimTime.ns(number(n, "hitLatencyNs", SimTime.toNs(d.hitLatencyPs()), 0, 1e6, "iommu.")));
    b.issueIntervalPs(SimTime.ns(number(n, "issueIntervalNs", SimTime.toNs(d.issueIntervalPs()), 0, 1e6,
        "iommu.")));
    if (n.has("prefetch")) {
      b.prefetch(bool(n, "prefetch", "iommu."));
    }
    if (n.has("pageTables")) {
      JsonNode v = n.get("pageTables");
      try {
        b.pageTables(PageTables.parse(v.isTextual() ? v.asText() : v.toString()));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("iommu." + e.getMessage().replace("page tables", "pageTables"), e);
      }
    }
    if (n.has("policy")) {
      String policy = n.get("policy").asText();
      try {
        b.policy(ReplacementPolicies.byName(policy));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("iommu.policy: " + e.getMessage(), e);
      }
    }
    try {
      return b.build();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("iommu: " + e.getMessage(), e);
    }
  }

  /**
   * The ranges of {@code nic.hostLatencyNs}, {@code nic.hostReadLatencyNs} and {@code nic.hostGBps}: the NIC's own
   * ({@link SimTime#MAX_LATENCY_PS}, {@link SimTime#MAX_BYTES_PER_SECOND}). The file allowed 10^9 ns and 10,000 GB/s,
   * and a value between the two limits was refused by the NIC under its own name and unit, "nic: hostLatencyPs must
   * be in [0, 1e9] ps (1 ms) but was 2000000000", a key no file has (until stop 77).
   */
  private static final double MAX_LATENCY_NS = SimTime.toNs(SimTime.MAX_LATENCY_PS);
  private static final double MAX_HOST_GBPS = SimTime.MAX_BYTES_PER_SECOND / 1e9;

  private static NicConfig nic(JsonNode n) {
    if (n == null) {
      return NicConfig.defaults();
    }
    object(n, "nic");
    checkKeys(n, "nic.", NIC);
    NicConfig d = NicConfig.defaults();
    NicTiming t = d.timing();
    try {
      NicTiming timing = new NicTiming(
          number(n, "clockMHz", t.clockHz() / 1e6, 1, 10_000, "nic.") * 1e6,
          (int) integer(n, "packetCycles", t.packetCycles(), 1, 1_000, "nic."),
          number(n, "hostGBps", t.hostBytesPerSecond() / 1e9, 0.001, MAX_HOST_GBPS, "nic.") * 1e9,
          SimTime.ns(number(n, "hostLatencyNs", SimTime.toNs(t.hostLatencyPs()), 0, MAX_LATENCY_NS, "nic.")),
          SimTime.ns(number(n, "hostReadLatencyNs", SimTime.toNs(t.hostReadLatencyPs()), 0, MAX_LATENCY_NS,
              "nic.")),
          (int) integer(n, "txPipelineCycles", t.txPipelineCycles(), 0, 1_000_000, "nic."),
          (int) integer(n, "rxPipelineCycles", t.rxPipelineCycles(), 0, 1_000_000, "nic."),
          (int) integer(n, "amoUnitCycles", t.amoUnitCycles(), 0, 1_000_000, "nic."))
          .withHostOverheadBytes((int) integer(n, "hostOverheadBytes", t.hostOverheadBytes(), 0,
              NicTiming.MAX_HOST_OVERHEAD_BYTES, "nic."));
      return new NicConfig(timing,
          (int) integer(n, "requestTags", d.requestTags(), 1, NicConfig.MAX_REQUEST_TAGS, "nic."),
          (int) integer(n, "amoRequestList", d.amoRequestList(), 1, 1 << 20, "nic."),
          (int) integer(n, "bteChannels", d.bteChannels(), 1, 4, "nic."),
          integer(n, "fmaBteThreshold", d.fmaBteThreshold(), 0, 1L << 32, "nic."),
          d.injectHoldLimit(), d.protectionTag(), d.protectionKey(), amoCache(n, d.amoCache()));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(e.getMessage().startsWith("nic.") ? e.getMessage()
          : "nic: " + e.getMessage(), e);
    }
  }

  private static AmoCacheConfig amoCache(JsonNode n, AmoCacheConfig d) {
    int entries = (int) integer(n, "amoCacheEntries", d.entries(), 0, AmoCacheConfig.MAX_ENTRIES, "nic.");
    String w = text(n, "amoCacheWriteBack", d.writeBack().toString());
    AmoWriteBack writeBack;
    try {
      writeBack = AmoWriteBack.parse(w);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("nic.amoCacheWriteBack must be one of idle, eviction but was " + w, e);
    }
    return new AmoCacheConfig(entries, writeBack);
  }

  private static void object(JsonNode n, String where) {
    if (!n.isObject()) {
      throw new IllegalArgumentException(where + " must be a mapping of keys to values but was "
          + Texts.abbreviate(n.toString()));
    }
  }

  private static void checkKeys(JsonNode n, String prefix, Set<String> known) {
    for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
      String k = it.next();
      if (!known.contains(k)) {
        throw new IllegalArgumentException("unknown key \"" + prefix + k + "\"; allowed keys"
            + (prefix.isEmpty() ? "" : " under " + prefix.substring(0, prefix.length() - 1)) + ": "
            + String.join(", ", new TreeSet<>(known)));
      }
    }
  }

  private static String text(JsonNode n, String key, String def) {
    JsonNode v = n.get(key);
    if (v == null) {
      return def;
    }
    if (!v.isTextual()) {
      throw new IllegalArgumentException(key + " must be text but was " + Texts.abbreviate(v.toString()));
    }
    return v.asText();
  }

  private static long integer(JsonNode n, String key, long def, long min, long max) {
    return integer(n, key, def, min, max, "");
  }

  private static long integer(JsonNode n, String key, long def, long min, long max, String prefix) {
    JsonNode v = n.get(key);
    if (v == null) {
      return def;
    }
    if (!v.isIntegralNumber() || !v.canConvertToLong()) {
      throw new IllegalArgumentException(prefix + key + " must be an integer in [" + min + ", " + max + "] but was "
          + Texts.abbreviate(v.toString()));
    }
    long x = v.asLong();
    if (x < min || x > max) {
      throw new IllegalArgumentException(prefix + key + " must be in [" + min + ", " + max + "] but was " + x);
    }
    return x;
  }

  private static double number(JsonNode n, String key, double def, double min, double max, String prefix) {
    JsonNode v = n.get(key);
    if (v == null) {
      return def;
    }
    if (!v.isNumber()) {
      throw new IllegalArgumentException(prefix + key + " must be a number in [" + min + ", " + max + "] but was "
          + Texts.abbreviate(v.toString()));
    }
    double x = v.asDouble();
    if (!(x >= min && x <= max)) {
      throw new IllegalArgumentException(prefix + key + " must be in [" + min + ", " + max + "] but was " + x);
    }
    return x;
  }

  private static boolean bool(JsonNode n, String key, String prefix) {
    JsonNode v = n.get(key);
    if (!v.isBoolean()) {
      throw new IllegalArgumentException(prefix + key + " must be true or false but was "
          + Texts.abbreviate(v.toString()));
    }
    return v.asBoolean();
  }

  /** @return the top-level keys a configuration file may use */
  public static List<String> topLevelKeys() {
    return List.copyOf(new TreeSet<>(TOP));
  }
}
