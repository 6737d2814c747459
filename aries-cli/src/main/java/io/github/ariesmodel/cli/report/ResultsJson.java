package io.github.ariesmodel.cli.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes and reads {@link Results} as JSON, schema {@value #SCHEMA} (specified in {@code docs/results-schema.md}).
 *
 * <p>Output is deterministic: keys in a fixed order, two-space indentation, one table row per line, {@code \n} line
 * ends, numbers in Java's
 * shortest round-trip form, UTF-8. The wall-clock fields are the only nondeterministic ones; {@link
 * #write(Results, Writer, boolean) write(..., false)} leaves them out so that runs with equal configuration and seed
 * give byte-identical files. Reading checks the schema and every type, and reports the JSON path of a bad field.
 */
public final class ResultsJson {

  /** The schema identifier written in every file, and the only one {@link #read(Reader)} accepts. */
  public static final String SCHEMA = "aries-model/results/1";

  private static final JsonFactory FACTORY = new JsonFactory();
  /**
   * Reads strictly, as {@code RunConfig} reads a configuration: a key twice in one object (inside {@code metrics}, say)
   * and anything after the results object are errors. Both were accepted until stop 73, the later value of a key
   * winning and text after the object dropped, so {@code merge} merged a damaged or hand-edited point file without a
   * word.
   */
  private static final ObjectMapper MAPPER = new ObjectMapper(JsonFactory.builder()
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build())
      .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private ResultsJson() {}

  /**
   * Writes results to a file (UTF-8), creating parent directories.
   *
   * @param results the results
   * @param file the file to write
   * @param includeWallClock whether to write the wall-clock fields
   * @throws IOException when the file cannot be written
   */
  public static void write(Results results, Path file, boolean includeWallClock) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    AtomicFiles.writeText(file, w -> write(results, w, includeWallClock));
  }

  /**
   * Writes results as JSON text, ending with a newline. The writer is not closed.
   *
   * @param results the results
   * @param out where to write
   * @param includeWallClock whether to write the wall-clock fields
   * @throws IOException when writing fails
   */
  public static void write(Results results, Writer out, boolean includeWallClock) throws IOException {
    DefaultPrettyPrinter pp = new DefaultPrettyPrinter()
        .withObjectIndenter(new DefaultIndenter("  ", "\n"))
        .withArrayIndenter(new DefaultIndenter("  ", "\n"));
    JsonGenerator g = FACTORY.createGenerator(out);
    g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
    g.setPrettyPrinter(pp);
    g.writeStartObject();
    g.writeStringField("schema", SCHEMA);
    writeRun(g, results.metadata(), includeWallClock);
    g.writeObjectFieldStart("metrics");
    for (Metric m : results.metrics()) {
      g.writeObjectFieldStart(m.name());
      g.writeNumberField("value", m.value());
      g.writeStringField("unit", m.unit());
      g.writeEndObject();
    }
    g.writeEndObject();
    g.writeArrayFieldStart("tables");
    for (ResultTable t : results.tables()) {
      writeTable(g, t);
    }
    g.writeEndArray();
    StatisticsJson.write(g, results.statistics());
    g.writeEndObject();
    g.flush();
    out.write('\n');
    out.flush();
  }

  /**
   * Results as a JSON string.
   *
   * @param results the results
   * @param includeWallClock whether to write the wall-clock fields
   * @return the JSON text
   */
  public static String toJson(Results results, boolean includeWallClock) {
    StringWriter w = new StringWriter();
    try {
      write(results, w, includeWallClock);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return w.toString();
  }

  private static void writeRun(JsonGenerator g, RunMetadata m, boolean includeWallClock) throws IOException {
    g.writeObjectFieldStart("run");
    g.writeStringField("tool", m.tool());
    if (m.build() != null) {
      // the code that made the results (absent: not known, a file written before the field)
      g.writeObjectFieldStart("build");
      g.writeStringField("version", m.build().version());
      g.writeStringField("commit", m.build().commit());
      if (m.build().dirty() == null) {
        g.writeNullField("dirty");
      } else {
        g.writeBooleanField("dirty", m.build().dirty());
      }
      g.writeEndObject();
    }
    g.writeStringField("command", m.command());
    g.writeStringField("system", m.system());
    g.writeStringField("routing", m.routing());
    g.writeStringField("fabric", m.fabric());
    g.writeStringField("translator", m.translator());
    writeSettings(g, "nic", m.nic());
    writeSettings(g, "iommu", m.iommu());
    if (m.seed() == null) {
      g.writeNullField("seed");
    } else {
      g.writeNumberField("seed", m.seed());
    }
    g.writeObjectFieldStart("parameters");
    for (Map.Entry<String, String> e : m.parameters().entrySet()) {
      g.writeStringField(e.getKey(), e.getValue());
    }
    g.writeEndObject();
    if (m.sweep() == null) {
      g.writeNullField("sweep");
    } else {
      g.writeObjectFieldStart("sweep");
      g.writeNumberField("index", m.sweep().index());
      g.writeNumberField("points", m.sweep().points());
      g.writeStringField("spec", m.sweep().spec());
      g.writeEndObject();
    }
    g.writeNumberField("simulatedTimePs", m.simulatedTimePs());
    g.writeNumberField("events", m.events());
    if (includeWallClock && m.wallClock() != null) {
      WallClock w = m.wallClock();
      g.writeObjectFieldStart("wallClock");
      g.writeStringField("startedAt", w.startedAt().toString());
      g.writeStringField("finishedAt", w.finishedAt().toString());
      g.writeNumberField("wallSeconds", w.wallSeconds());
      if (m.eventsPerSecond().isPresent()) {
        g.writeNumberField("eventsPerSecond", m.eventsPerSecond().getAsDouble());
      } else {
        g.writeNullField("eventsPerSecond");
      }
      g.writeEndObject();
    }
    g.writeEndObject();
  }

  private static void writeSettings(JsonGenerator g, String name, Map<String, String> settings) throws IOException {
    if (settings == null) {
      g.writeNullField(name);
      return;
    }
    g.writeObjectFieldStart(name);
    for (Map.Entry<String, String> e : settings.entrySet()) {
      g.writeStringField(e.getKey(), e.getValue());
    }
    g.writeEndObject();
  }

  private static void writeTable(JsonGenerator g, ResultTable t) throws IOException {
    g.writeStartObject();
    g.writeStringField("name", t.name());
    g.writeArrayFieldStart("columns");
    for (Column c : t.columns()) {
      g.writeStartObject();
      g.writeStringField("name", c.name());
      g.writeStringField("unit", c.unit());
      g.writeStringField("type", c.type().id());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeArrayFieldStart("rows");
    StringWriter rowText = new StringWriter();
    for (List<Object> row : t.rows()) {
      rowText.getBuffer().setLength(0);
      try (JsonGenerator r = FACTORY.createGenerator(rowText)) {
        r.writeStartArray();
        for (Object v : row) {
          if (v == null) {
            r.writeNull();
          } else if (v instanceof Long l) {
            r.writeNumber(l);
          } else if (v instanceof Double d) {
            r.writeNumber(d);
          } else {
            r.writeString((String) v);
          }
        }
        r.writeEndArray();
      }
      g.writeRawValue(rowText.toString());
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  /**
   * Reads results from a file.
   *
   * @param file a results file
   * @return the results
   * @throws IOException when the file cannot be read
   * @throws IllegalArgumentException naming the file: when it is a directory, is not UTF-8 text, is not JSON (with
   *     the line and column) or does not follow the schema (with the field)
   */
  public static Results read(Path file) throws IOException {
    if (Files.isDirectory(file)) {
      throw new IllegalArgumentException(file + " is a directory, not a results file");
    }
    JsonNode root;
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8); JsonParser p = MAPPER.createParser(r)) {
      try {
        root = MAPPER.readTree(p);
      } catch (JsonProcessingException e) {
        // a limit exceeded (nesting, number length) carries no location of its own; the parser knows where it is
        JsonLocation l = e.getLocation() != null ? e.getLocation() : p.currentLocation();
        throw new IllegalArgumentException(file + (l == null || l.getLineNr() < 0 ? "" : ", line " + l.getLineNr()
            + ", column " + l.getColumnNr()) + ": not valid JSON: " + parseProblem(e), e);
      }
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException(file + " is not UTF-8 text (a results file is JSON)", e);
    }
    try {
      return read(root);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
    }
  }

  /**
   * A JSON parser's problem in plain words: Jackson's message without the source location it appends (callers
   * report the file, line and column themselves) and without the names of Jackson's options and limits
   * ({@code enable JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS}, {@code from StreamReadConstraints...}), which mean
   * nothing to whoever wrote the file.
   *
   * @param e the parser's exception
   * @return one line saying what is wrong
   */
  public static String parseProblem(JsonProcessingException e) {
    String m = e.getOriginalMessage();
    if (m == null) {
      return "malformed input";
    }
    m = m.replaceAll("\\s*\\(start marker at \\[Source:[^\\]]*\\]\\)", "")
        .replaceAll("\\s*at \\[Source:[^\\]]*\\]", "")
        .replaceAll(",\\s*from `[^`]*`", "")
        .replaceAll("[:;,]?\\s*\\(?(?:or )?enable `[^`]*`(?: to allow)?\\)?", "")
        .replaceAll("`(?:[A-Za-z]+\\.)+[A-Za-z]+(?:\\(\\))?`", "")
        .strip();
    if (m.startsWith("Trailing token")) {
      // (FAIL_ON_TRAILING_TOKENS's own words name the option)
      return "more follows the first value (a second JSON value or YAML document, or stray text); a file holds one";
    }
    // "... (not recognized as one since Feature 'ALLOW_COMMENTS' not enabled for parser)": the option's name
    m = m.replaceAll("\\s*\\(not recognized as one since Feature '[A-Z_]+' not enabled for parser\\)", "")
        .replaceAll("\\s*\\(?since Feature '[A-Z_]+' not enabled[^)]*\\)?", "");
    if (m.startsWith("Unexpected end-of-input")) {
      return "the text ends early (" + m + ")";
    }
    if (m.matches("(?s)Non-standard token '(?:[+-]?Infinity|NaN|INF)'.*")) {
      return m + ": JSON numbers are finite";
    }
    return m;
  }

  /**
   * Reads results from JSON text. Unknown fields are errors, except the derived wall-clock fields
   * ({@code wallSeconds}, {@code eventsPerSecond}), which are recomputed.
   *
   * @param in JSON text
   * @return the results
   * @throws IOException when the text is not JSON
   * @throws IllegalArgumentException naming the field when the JSON does not follow the schema
   */
  public static Results read(Reader in) throws IOException {
    return read(MAPPER.readTree(in));
  }

  private static Results read(JsonNode root) {
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException("results must be a JSON object");
    }
    String schema = text(root, "schema", "$", false);
    if (!SCHEMA.equals(schema)) {
      throw new IllegalArgumentException("$.schema must be \"" + SCHEMA + "\" but was \"" + schema + "\"");
    }
    only(root, "$", "schema", "run", "metrics", "tables", "statistics");
    RunMetadata metadata = readRun(field(root, "run", "$", JsonNodeType.OBJECT));
    Results.Builder b = Results.builder(metadata);
    JsonNode metrics = field(root, "metrics", "$", JsonNodeType.OBJECT);
    for (Map.Entry<String, JsonNode> e : metrics.properties()) {
      String path = "$.metrics." + e.getKey();
      JsonNode m = e.getValue();
      if (!m.isObject()) {
        throw new IllegalArgumentException(path + " must be an object");
      }
      only(m, path, "value", "unit");
      b.metric(e.getKey(), field(m, "value", path, JsonNodeType.NUMBER).doubleValue(), text(m, "unit", path, false));
    }
    JsonNode tables = field(root, "tables", "$", JsonNodeType.ARRAY);
    for (int i = 0; i < tables.size(); i++) {
      b.table(readTable(tables.get(i), "$.tables[" + i + "]"));
    }
    b.statistics(StatisticsJson.read(root.get("statistics")));
    return b.build();
  }

  private static RunMetadata readRun(JsonNode run) {
    String p = "$.run";
    only(run, p, "tool", "build", "command", "system", "routing", "fabric", "translator", "nic", "iommu", "seed",
        "parameters", "sweep", "simulatedTimePs", "events", "wallClock");
    RunMetadata.Builder b = RunMetadata.builder(text(run, "tool", p, false), text(run, "command", p, false))
        .system(text(run, "system", p, true))
        .routing(text(run, "routing", p, true));
    b.build(build(run.get("build"), p + ".build"));
    // added after the schema was published: a file written before them lacks them (read as not known)
    b.fabric(run.has("fabric") ? text(run, "fabric", p, true) : null)
        .translator(run.has("translator") ? text(run, "translator", p, true) : null)
        .nic(settings(run, "nic", p))
        .iommu(settings(run, "iommu", p));
    JsonNode seed = run.get("seed");
    if (seed == null) {
      throw new IllegalArgumentException(p + ".seed is missing");
    }
    if (!seed.isNull()) {
      b.seed(integral(seed, p + ".seed"));
    }
    b.parameters(strings(field(run, "parameters", p, JsonNodeType.OBJECT), p + ".parameters"));
    JsonNode sweep = run.get("sweep");
    if (sweep == null) {
      throw new IllegalArgumentException(p + ".sweep is missing");
    }
    if (!sweep.isNull()) {
      String sp = p + ".sweep";
      only(sweep, sp, "index", "points", "spec");
      b.sweep(new SweepCoordinates(count(field(sweep, "index", sp, JsonNodeType.NUMBER), sp + ".index"),
          count(field(sweep, "points", sp, JsonNodeType.NUMBER), sp + ".points"), text(sweep, "spec", sp, false)));
    }
    b.simulatedTimePs(integral(field(run, "simulatedTimePs", p, JsonNodeType.NUMBER), p + ".simulatedTimePs"));
    b.events(integral(field(run, "events", p, JsonNodeType.NUMBER), p + ".events"));
    JsonNode wall = run.get("wallClock");
    if (wall != null && !wall.isNull()) {
      String wp = p + ".wallClock";
      only(wall, wp, "startedAt", "finishedAt", "wallSeconds", "eventsPerSecond");
      b.wallClock(new WallClock(instant(wall, "startedAt", wp), instant(wall, "finishedAt", wp)));
    }
    return b.build();
  }

  /** {@code run.build}: absent (a file written before the field existed) or null, not known. */
  private static BuildInfo build(JsonNode v, String path) {
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isObject()) {
      throw new IllegalArgumentException(path + " must be an object or null but was " + v);
    }
    only(v, path, "version", "commit", "dirty");
    JsonNode dirty = v.get("dirty");
    if (dirty == null || !(dirty.isNull() || dirty.isBoolean())) {
      throw new IllegalArgumentException(path + ".dirty must be true, false or null but was "
          + (dirty == null ? "missing" : dirty.toString()));
    }
    try {
      return new BuildInfo(text(v, "version", path, false), text(v, "commit", path, false),
          dirty.isNull() ? null : dirty.booleanValue());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(path + ": " + e.getMessage(), e);
    }
  }

  /** An object of strings, null, or (a file written before the field existed) absent: null. */
  private static Map<String, String> settings(JsonNode run, String name, String path) {
    JsonNode v = run.get(name);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isObject()) {
      throw new IllegalArgumentException(path + "." + name + " must be an object or null but was " + v);
    }
    return strings(v, path + "." + name);
  }

  private static Map<String, String> strings(JsonNode object, String path) {
    Map<String, String> values = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : object.properties()) {
      if (!e.getValue().isTextual()) {
        throw new IllegalArgumentException(path + "." + e.getKey() + " must be a string");
      }
      values.put(e.getKey(), e.getValue().textValue());
    }
    return values;
  }

  private static ResultTable readTable(JsonNode t, String p) {
    if (!t.isObject()) {
      throw new IllegalArgumentException(p + " must be an object");
    }
    only(t, p, "name", "columns", "rows");
    ResultTable.Builder b = ResultTable.builder(text(t, "name", p, false));
    JsonNode cols = field(t, "columns", p, JsonNodeType.ARRAY);
    List<Column> columns = new ArrayList<>();
    for (int i = 0; i < cols.size(); i++) {
      String cp = p + ".columns[" + i + "]";
      JsonNode c = cols.get(i);
      if (!c.isObject()) {
        throw new IllegalArgumentException(cp + " must be an object");
      }
      only(c, cp, "name", "unit", "type");
      Column col = new Column(text(c, "name", cp, false), text(c, "unit", cp, false),
          ColumnType.of(text(c, "type", cp, false)));
      columns.add(col);
      b.column(col);
    }
    JsonNode rows = field(t, "rows", p, JsonNodeType.ARRAY);
    for (int r = 0; r < rows.size(); r++) {
      String rp = p + ".rows[" + r + "]";
      JsonNode row = rows.get(r);
      if (!row.isArray() || row.size() != columns.size()) {
        throw new IllegalArgumentException(rp + " must be an array of " + columns.size() + " cells");
      }
      Object[] cells = new Object[columns.size()];
      for (int c = 0; c < cells.length; c++) {
        JsonNode v = row.get(c);
        String vp = rp + "[" + c + "]";
        if (v.isNull()) {
          continue;
        }
        switch (columns.get(c).type()) {
          case INTEGER -> cells[c] = integral(v, vp);
          case NUMBER -> {
            if (!v.isNumber()) {
              throw new IllegalArgumentException(vp + " must be a number but was " + v);
            }
            cells[c] = v.doubleValue();
          }
          default -> {
            if (!v.isTextual()) {
              throw new IllegalArgumentException(vp + " must be a string but was " + v);
            }
            cells[c] = v.textValue();
          }
        }
      }
      b.row(cells);
    }
    return b.build();
  }

  private static void only(JsonNode node, String path, String... allowed) {
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      String name = it.next();
      boolean ok = false;
      for (String a : allowed) {
        ok |= a.equals(name);
      }
      if (!ok) {
        throw new IllegalArgumentException(path + " has unknown field \"" + name + "\"; allowed are "
            + String.join(", ", allowed));
      }
    }
  }

  private static JsonNode field(JsonNode node, String name, String path, JsonNodeType type) {
    JsonNode v = node.get(name);
    if (v == null || v.getNodeType() != type) {
      throw new IllegalArgumentException(path + "." + name + " must be a " + type.name().toLowerCase(java.util.Locale.ROOT)
          + " but was " + (v == null ? "missing" : v.toString()));
    }
    return v;
  }

  private static String text(JsonNode node, String name, String path, boolean nullable) {
    JsonNode v = node.get(name);
    if (v == null) {
      throw new IllegalArgumentException(path + "." + name + " is missing");
    }
    if (nullable && v.isNull()) {
      return null;
    }
    if (!v.isTextual()) {
      throw new IllegalArgumentException(path + "." + name + " must be a string" + (nullable ? " or null" : "")
          + " but was " + v);
    }
    return v.textValue();
  }

  private static long integral(JsonNode v, String path) {
    if (!v.isIntegralNumber() || !v.canConvertToLong()) {
      throw new IllegalArgumentException(path + " must be a whole number in the range of a long but was " + v);
    }
    return v.longValue();
  }

  /** A whole number in [0, {@link Integer#MAX_VALUE}]: a point index or a point count. */
  private static int count(JsonNode v, String path) {
    if (!v.isIntegralNumber() || !v.canConvertToInt() || v.intValue() < 0) {
      throw new IllegalArgumentException(path + " must be a whole number in [0, " + Integer.MAX_VALUE + "] but was "
          + v);
    }
    return v.intValue();
  }

  private static Instant instant(JsonNode node, String name, String path) {
    String s = text(node, name, path, false);
    try {
      return Instant.parse(s);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(path + "." + name + " must be an ISO-8601 instant but was \"" + s + "\"", e);
    }
  }
}
