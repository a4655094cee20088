// The driver of openapi-generator's `kotlin` client (jvm-okhttp4, moshi): argv = the fake's base URL, the driver input.
// Each check prints `POLYGLOT {"check", "ok", "detail"}` (test/polyglot/README.md). Operations are called with named
// arguments, so an optional parameter the document adds does not break the driver.
import com.squareup.moshi.JsonAdapter
import com.squareup.moshi.JsonReader
import okio.Buffer
import org.openapitools.client.apis.JobsApi
import org.openapitools.client.apis.MergeRequestsApi
import org.openapitools.client.infrastructure.ApiClient
import org.openapitools.client.infrastructure.ClientException
import org.openapitools.client.infrastructure.Serializer
import org.openapitools.client.models.CreateMergeRequestRequest
import java.io.File

const val PROJECT = "my-group/my-project"
const val BIG_ID = 9007199254740993L
val moshi = Serializer.moshi
val anyAdapter: JsonAdapter<Any> = moshi.adapter(Any::class.java).serializeNulls()

@Suppress("UNCHECKED_CAST")
fun <T> cast(value: Any?): T = value as T

/** A JSON number as written (moshi's own trees read every number as a double, which loses 2^53 + 1). */
class Literal(private val text: String) : Number() {
    override fun toString() = text
    override fun toDouble() = text.toDouble()
    override fun toFloat() = text.toFloat()
    override fun toLong() = text.toBigDecimal().toLong()
    override fun toInt() = toLong().toInt()
    override fun toShort() = toLong().toShort()
    override fun toByte() = toLong().toByte()
}

fun readTree(reader: JsonReader): Any? = when (reader.peek()) {
    JsonReader.Token.BEGIN_OBJECT -> mutableMapOf<String, Any?>().also { map ->
        reader.beginObject()
        while (reader.hasNext()) map[reader.nextName()] = readTree(reader)
        reader.endObject()
    }
    JsonReader.Token.BEGIN_ARRAY -> mutableListOf<Any?>().also { list ->
        reader.beginArray()
        while (reader.hasNext()) list += readTree(reader)
        reader.endArray()
    }
    JsonReader.Token.NUMBER -> Literal(reader.nextString())
    JsonReader.Token.BOOLEAN -> reader.nextBoolean()
    JsonReader.Token.NULL -> reader.nextNull<Any>()
    else -> reader.nextString()
}

val stringAdapter: JsonAdapter<String> = moshi.adapter(String::class.java)

fun toJson(value: Any?): String = when (value) {
    null -> "null"
    is String -> stringAdapter.toJson(value)
    is Boolean, is Number -> value.toString()
    is Map<*, *> -> value.entries.joinToString(",", "{", "}") { (key, item) -> stringAdapter.toJson(key as String) + ":" + toJson(item) }
    is List<*> -> value.joinToString(",", "[", "]") { toJson(it) }
    else -> throw IllegalArgumentException("not JSON: $value")
}

fun report(check: String, ok: Boolean, detail: String) {
    val line = mapOf("check" to check, "ok" to ok, "detail" to detail.take(4000))
    println("POLYGLOT " + toJson(line))
}

fun run(check: String, body: () -> String) {
    try {
        report(check, true, body())
    } catch (failure: Throwable) {
        report(check, false, failure.toString())
    }
}

fun require(ok: Boolean, detail: String) {
    if (!ok) throw AssertionError(detail)
}

fun className(component: String) =
    component.split(Regex("[^A-Za-z0-9]+")).filter { it.isNotEmpty() }.joinToString("") { it[0].uppercase() + it.substring(1) }

fun parse(model: String, value: Any?): Any =
    moshi.adapter(Class.forName("org.openapitools.client.models." + className(model))).fromJson(toJson(value))
        ?: throw AssertionError("$model: null")

fun refuses(model: String, value: Any?) = try {
    parse(model, value)
    false
} catch (refused: Exception) {
    true
}

fun with(sample: Map<String, Any?>, vararg fields: Pair<String, Any?>) = sample + fields

/**
 * The samples the model checks start from. A merge request's `labels` (items `anyOf [string, MergeRequestLabel]`) is
 * emptied: the moshi client reads each item as a `MergeRequestLabel` object and refuses a label name, whatever the
 * other fields hold (a generator bug the `examples` and `page-merge-requests` checks record), so the `required` and
 * `nullable` checks would say nothing about the fields they check.
 */
fun samplesOf(spec: Map<String, Any?>): Map<String, Map<String, Any?>> =
    cast<Map<String, Map<String, Any?>>>(spec["samples"]).mapValues { (model, sample) ->
        if (model == "MergeRequest") sample + ("labels" to emptyList<Any?>()) else sample
    }

fun modelChecks(spec: Map<String, Any?>) {
    val samples = samplesOf(spec)
    val job = samples.getValue("Job")
    val mergeRequest = samples.getValue("MergeRequest")
    run("required") {
        val accepted = mutableListOf<String>()
        for ((model, fields) in cast<Map<String, List<String>>>(spec["required"])) {
            parse(model, samples[model])
            for (field in fields) if (!refuses(model, samples.getValue(model) - field)) accepted += "$model without $field"
        }
        require(accepted.isEmpty(), "accepted: $accepted")
        "every required field is required"
    }
    run("int64") {
        val parsed = parse("Job", with(job, "id" to BIG_ID))
        val id = parsed.javaClass.getMethod("getId").invoke(parsed)
        require(id == BIG_ID, "Job.id $BIG_ID parsed as $id")
        "Job.id is ${id?.javaClass?.simpleName}"
    }
    run("nullable") {
        parse("Job", with(job, "coverage" to null, "started_at" to null, "finished_at" to null, "erased_at" to null))
        parse("MergeRequest", with(mergeRequest, "merged_at" to null, "closed_at" to null, "merge_user" to null))
        require(refuses("Job", with(job, "name" to null)), "Job.name: null accepted")
        "null accepted where nullable, refused in Job.name"
    }
    run("enums") {
        val wrong = cast<Map<String, List<Any?>>>(spec["enums"]).mapNotNull { (name, values) ->
            val constants = Class.forName("org.openapitools.client.models.$name").enumConstants
            val got = constants.map { it.javaClass.getMethod("getValue").invoke(it).toString() }.toSortedSet()
            val want = values.map { it.toString() }.toSortedSet()
            if (got == want) null else "$name: $got instead of $want"
        }
        require(wrong.isEmpty(), wrong.joinToString("; "))
        "JobStatus and MergeRequestState keep their values"
    }
    run("examples") { examples(cast(spec["examples"])) }
}

fun examples(examples: List<Map<String, Any?>>): String {
    val refused = mutableListOf<String>()
    val operations = mutableSetOf<String>()
    for (example in examples) {
        val values: List<Any?> = if (example["array"] == true) cast(example["value"]) else listOf(example["value"])
        try {
            values.forEach { parse(example["model"] as String, it) }
            operations += example["operationId"] as String
        } catch (failure: Exception) {
            refused += "${example["operationId"]} ${example["status"]} ${example["name"]} (${example["model"]}): ${failure.toString().take(300)}"
        }
    }
    // One line per reason (numbers and the JSON path aside), with the first examples it refused.
    val reasons = refused.groupBy { it.substringAfter("): ").replace(Regex(" at path .*"), "").replace(Regex("[0-9]+"), "#").take(160) }
    val detail = "${operations.size} operations' examples parse; refused ${refused.size}:\n" +
        reasons.entries.joinToString("\n") { (reason, lines) ->
            "${lines.size} x $reason: " + lines.take(4).joinToString("; ") { it.substringBefore(" (") }
        }
    require(refused.isEmpty() && operations.size >= 30, detail)
    return detail
}

/** A field of a record, read through its JSON form, whatever type the generator gave the record. */
fun field(record: Any, name: String): Any? {
    val adapter: JsonAdapter<Any> = cast(moshi.adapter(record.javaClass))
    return cast<Map<String, Any?>>(anyAdapter.fromJson(adapter.toJson(record)))[name]
}

fun calls(baseUrl: String) {
    ApiClient.apiKey["PRIVATE-TOKEN"] = "maintainer-token"
    val jobs = JobsApi(basePath = baseUrl)
    val mergeRequests = MergeRequestsApi(basePath = baseUrl)
    fun create(source: String) = mergeRequests.mergeRequestsCreateMergeRequest(
        id = PROJECT,
        createMergeRequestRequest = CreateMergeRequestRequest(sourceBranch = source, targetBranch = "main", title = "Polyglot check"),
    )
    var created = 0L
    run("jobs-path-encoded") {
        val list = jobs.jobsListProjectJobs(id = PROJECT)
        require(list.isNotEmpty(), "no jobs")
        "${list.size} jobs"
    }
    run("create-merge-request") {
        created = (field(create("feature/polyglot"), "iid") as Number).toLong()
        "iid $created"
    }
    run("page-merge-requests") {
        require(created != 0L, "no merge request was created")
        val seen = mutableListOf<Long>()
        for (page in 1L until 50L) {
            val items = mergeRequests.mergeRequestsListProjectMergeRequests(id = PROJECT, page = page, perPage = 2)
            if (items.isEmpty()) break
            items.forEach { seen += (field(it, "iid") as Number).toLong() }
        }
        require(created in seen && seen.size > 2, "iids seen over the pages: $seen")
        "iids seen over the pages: $seen"
    }
    run("merge") {
        require(created != 0L, "no merge request was created")
        val state = field(mergeRequests.mergeRequestsMerge(id = PROJECT, mergeRequestIid = created), "state")
        require(state == "merged", "state after merge: $state")
        "$state"
    }
    run("conflict-error") {
        try {
            create("feature/login")
        } catch (error: ClientException) {
            require(error.statusCode == 409, "ClientException ${error.statusCode}")
            return@run "ClientException 409"
        }
        throw AssertionError("no error")
    }
}

fun main(args: Array<String>) {
    val spec: Map<String, Any?> = cast(readTree(JsonReader.of(Buffer().writeUtf8(File(args[1]).readText()))))
    modelChecks(spec)
    calls(args[0])
}
