import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.openapitools.client.ApiClient;
import org.openapitools.client.ApiException;
import org.openapitools.client.auth.ApiKeyAuth;
import org.openapitools.client.api.JobsApi;
import org.openapitools.client.api.MergeRequestsApi;

/**
 * The driver of openapi-generator's `java` client (okhttp-gson): argv = the fake's base URL, the driver input. Each
 * check prints `POLYGLOT {"check", "ok", "detail"}` (test/polyglot/README.md). The client is compiled with
 * `-parameters`, so operations are called by parameter name: a parameter the document adds does not break the driver.
 */
public final class Driver {
  static final String PROJECT = "my-group/my-project";
  static final long BIG_ID = 9007199254740993L;
  /** Nulls kept: a documented `null` is part of what the models must read. */
  static final Gson GSON = new GsonBuilder().serializeNulls().create();

  static void report(String check, boolean ok, String detail) {
    JsonObject line = new JsonObject();
    line.addProperty("check", check);
    line.addProperty("ok", ok);
    line.addProperty("detail", detail.length() > 4000 ? detail.substring(0, 4000) : detail);
    System.out.println("POLYGLOT " + GSON.toJson(line));
  }

  interface Check {
    String run() throws Exception; // the detail; throws AssertionError to fail
  }

  static void run(String check, Check body) {
    try {
      report(check, true, body.run());
    } catch (Throwable failure) {
      Throwable cause = failure instanceof InvocationTargetException ? failure.getCause() : failure;
      report(check, false, String.valueOf(cause));
    }
  }

  static void require(boolean ok, String detail) {
    if (!ok) throw new AssertionError(detail);
  }

  static String className(String component) {
    StringBuilder name = new StringBuilder();
    for (String part : component.split("[^A-Za-z0-9]+"))
      if (!part.isEmpty()) name.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
    return name.toString();
  }

  static Object parse(String model, JsonElement value) throws Exception {
    Class<?> type = Class.forName("org.openapitools.client.model." + className(model));
    return type.getMethod("fromJson", String.class).invoke(null, GSON.toJson(value));
  }

  static boolean refuses(String model, JsonElement value) {
    try {
      parse(model, value);
      return false;
    } catch (Exception refused) {
      return true;
    }
  }

  static JsonObject with(JsonObject sample, Map<String, JsonElement> fields) {
    JsonObject copy = sample.deepCopy();
    fields.forEach(copy::add);
    return copy;
  }

  static Set<String> enumValues(String name) throws Exception {
    Set<String> values = new TreeSet<>();
    for (Object constant : Class.forName("org.openapitools.client.model." + name).getEnumConstants())
      values.add(String.valueOf(constant.getClass().getMethod("getValue").invoke(constant)));
    return values;
  }

  static void modelChecks(JsonObject spec) {
    JsonObject samples = spec.getAsJsonObject("samples");
    run("required", () -> {
      List<String> accepted = new ArrayList<>();
      for (Map.Entry<String, JsonElement> entry : spec.getAsJsonObject("required").entrySet()) {
        JsonObject sample = samples.getAsJsonObject(entry.getKey());
        parse(entry.getKey(), sample);
        for (JsonElement field : entry.getValue().getAsJsonArray()) {
          JsonObject without = sample.deepCopy();
          without.remove(field.getAsString());
          if (!refuses(entry.getKey(), without)) accepted.add(entry.getKey() + " without " + field.getAsString());
        }
      }
      require(accepted.isEmpty(), "accepted: " + accepted);
      return "every required field is required";
    });
    run("int64", () -> {
      Object job = parse("Job", with(samples.getAsJsonObject("Job"), Map.of("id", new JsonPrimitive(BIG_ID))));
      Object id = job.getClass().getMethod("getId").invoke(job);
      require(Long.valueOf(BIG_ID).equals(id), "Job.id " + BIG_ID + " parsed as " + id);
      return "Job.id is " + id.getClass().getSimpleName();
    });
    run("nullable", () -> {
      JsonElement nil = JsonNull.INSTANCE;
      parse("Job", with(samples.getAsJsonObject("Job"), Map.of("coverage", nil, "started_at", nil, "finished_at", nil, "erased_at", nil)));
      parse("MergeRequest", with(samples.getAsJsonObject("MergeRequest"), Map.of("merged_at", nil, "closed_at", nil, "merge_user", nil)));
      require(refuses("Job", with(samples.getAsJsonObject("Job"), Map.of("name", nil))), "Job.name: null accepted");
      return "null accepted where nullable, refused in Job.name";
    });
    run("enums", () -> {
      List<String> wrong = new ArrayList<>();
      for (Map.Entry<String, JsonElement> entry : spec.getAsJsonObject("enums").entrySet()) {
        Set<String> want = new TreeSet<>();
        entry.getValue().getAsJsonArray().forEach(value -> want.add(value.getAsString()));
        Set<String> got = enumValues(entry.getKey());
        if (!got.equals(want)) wrong.add(entry.getKey() + ": " + got + " instead of " + want);
      }
      require(wrong.isEmpty(), String.join("; ", wrong));
      return "JobStatus and MergeRequestState keep their values";
    });
    run("examples", () -> examples(spec.getAsJsonArray("examples")));
  }

  static String examples(JsonArray examples) {
    List<String> refused = new ArrayList<>();
    Set<String> operations = new HashSet<>();
    for (JsonElement element : examples) {
      JsonObject example = element.getAsJsonObject();
      JsonElement value = example.get("value");
      List<JsonElement> values = example.get("array").getAsBoolean() ? value.getAsJsonArray().asList() : List.of(value);
      try {
        for (JsonElement item : values) parse(example.get("model").getAsString(), item);
        operations.add(example.get("operationId").getAsString());
      } catch (Exception failure) {
        Throwable cause = failure instanceof InvocationTargetException ? failure.getCause() : failure;
        String why = String.valueOf(cause);
        refused.add(example.get("operationId").getAsString() + " " + example.get("status").getAsString() + " "
            + example.get("name").getAsString() + " (" + example.get("model").getAsString() + "): "
            + why.substring(0, Math.min(why.length(), 300)));
      }
    }
    String detail = operations.size() + " operations' examples parse; refused " + refused.size() + ":\n"
        + String.join("\n", refused.subList(0, Math.min(refused.size(), 25)));
    require(refused.isEmpty() && operations.size() >= 30, detail);
    return detail;
  }

  /** Calls an operation by the names of its parameters (null for the others). */
  static Object call(Object api, String operation, Map<String, Object> arguments) throws Exception {
    Method method = Arrays.stream(api.getClass().getMethods())
        .filter(candidate -> candidate.getName().equals(operation))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no method " + operation));
    Parameter[] parameters = method.getParameters();
    Object[] values = new Object[parameters.length];
    for (int i = 0; i < parameters.length; i++) {
      Object value = arguments.get(parameters[i].getName());
      if (value instanceof Number number && parameters[i].getType() == Integer.class) value = number.intValue();
      if (value instanceof Number number && parameters[i].getType() == Long.class) value = number.longValue();
      values[i] = value;
    }
    return method.invoke(api, values);
  }

  static JsonObject json(Object record) {
    return JsonParser.parseString(org.openapitools.client.JSON.serialize(record)).getAsJsonObject();
  }

  static Object createMergeRequest(MergeRequestsApi api, String source, String target) throws Exception {
    JsonObject body = new JsonObject();
    body.addProperty("source_branch", source);
    body.addProperty("target_branch", target);
    body.addProperty("title", "Polyglot check");
    Object request = parse("CreateMergeRequestRequest", body);
    return call(api, "mergeRequestsCreateMergeRequest", Map.of("id", PROJECT, "createMergeRequestRequest", request));
  }

  static void calls(String baseUrl) {
    ApiClient client = new ApiClient().setBasePath(baseUrl);
    ((ApiKeyAuth) client.getAuthentication("privateTokenHeader")).setApiKey("maintainer-token");
    JobsApi jobs = new JobsApi(client);
    MergeRequestsApi mergeRequests = new MergeRequestsApi(client);
    long[] created = {0};
    run("jobs-path-encoded", () -> {
      List<?> list = (List<?>) call(jobs, "jobsListProjectJobs", Map.of("id", PROJECT));
      require(!list.isEmpty(), "no jobs");
      return list.size() + " jobs";
    });
    run("create-merge-request", () -> {
      created[0] = json(createMergeRequest(mergeRequests, "feature/polyglot", "main")).get("iid").getAsLong();
      return "iid " + created[0];
    });
    run("page-merge-requests", () -> {
      require(created[0] != 0, "no merge request was created");
      List<Long> seen = new ArrayList<>();
      for (long page = 1; page < 50; page++) {
        List<?> items = (List<?>) call(mergeRequests, "mergeRequestsListProjectMergeRequests", Map.of("id", PROJECT, "page", page, "perPage", 2));
        if (items.isEmpty()) break;
        for (Object item : items) seen.add(json(item).get("iid").getAsLong());
      }
      require(seen.contains(created[0]) && seen.size() > 2, "iids seen over the pages: " + seen);
      return "iids seen over the pages: " + seen;
    });
    run("merge", () -> {
      require(created[0] != 0, "no merge request was created");
      Object merged = call(mergeRequests, "mergeRequestsMerge", Map.of("id", PROJECT, "mergeRequestIid", created[0]));
      String state = json(merged).get("state").getAsString();
      require(state.equals("merged"), "state after merge: " + state);
      return state;
    });
    run("conflict-error", () -> {
      try {
        createMergeRequest(mergeRequests, "feature/login", "main");
      } catch (InvocationTargetException thrown) {
        require(thrown.getCause() instanceof ApiException, "not an ApiException: " + thrown.getCause());
        int code = ((ApiException) thrown.getCause()).getCode();
        require(code == 409, "ApiException " + code);
        return "ApiException 409";
      }
      throw new AssertionError("no error");
    });
  }

  public static void main(String[] args) throws Exception {
    JsonObject spec = JsonParser.parseString(Files.readString(Path.of(args[1]))).getAsJsonObject();
    modelChecks(spec);
    calls(args[0]);
  }
}
