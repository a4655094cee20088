// Package polyglot holds the fidelity checks and the call sequence every Go driver runs on its generated client.
// Each check prints one line, `POLYGLOT {"check": …, "ok": …, "detail": …}`, which the tier reads
// (test/polyglot/support/drivers.ts); a check that panics is reported as failed.
package polyglot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
)

// BigID is 2^53 + 1: a 64-bit id no double holds exactly.
const BigID int64 = 9007199254740993

// Project is the path every client must send encoded (my-group%2Fmy-project).
const Project = "my-group/my-project"

// Spec is what the tier writes for the drivers (support/examples.ts, driverInput).
type Spec struct {
	Examples []struct {
		OperationID string          `json:"operationId"`
		Status      string          `json:"status"`
		Name        string          `json:"name"`
		Model       string          `json:"model"`
		Array       bool            `json:"array"`
		Value       json.RawMessage `json:"value"`
	} `json:"examples"`
	Required map[string][]string                   `json:"required"`
	Nullable map[string][]string                   `json:"nullable"`
	Enums    map[string][]any                      `json:"enums"`
	Samples  map[string]map[string]json.RawMessage `json:"samples"`
}

// Models is how a driver reads its generated models.
type Models struct {
	// New gives a pointer to a new value of a component's generated type (json.Unmarshal decodes into it).
	New map[string]func() any
	// Enums gives the values of the generated enums, by component.
	Enums map[string][]string
	// JobID reads the id of a decoded *Job.
	JobID func(job any) int64
	// RefusesNull: the generated models refuse null in a non-null field (Go's encoding/json does not).
	RefusesNull bool
}

// Report prints one check's result.
func Report(check string, ok bool, detail string) {
	if len(detail) > 4000 {
		detail = detail[:4000]
	}
	line, _ := json.Marshal(map[string]any{"check": check, "ok": ok, "detail": detail})
	fmt.Printf("POLYGLOT %s\n", line)
}

// Run runs a check, a panic included.
func Run(check string, body func() (bool, string)) {
	defer func() {
		if failure := recover(); failure != nil {
			Report(check, false, fmt.Sprintf("panic: %v\n%s", failure, debug.Stack()))
		}
	}()
	ok, detail := body()
	Report(check, ok, detail)
}

// ReadArguments reads argv: the fake's base URL and the driver input.
func ReadArguments() (string, Spec) {
	var spec Spec
	data, err := os.ReadFile(os.Args[2])
	if err == nil {
		err = json.Unmarshal(data, &spec)
	}
	if err != nil {
		panic(err)
	}
	return os.Args[1], spec
}

func (m Models) parse(model string, value []byte) (any, error) {
	create, found := m.New[model]
	if !found {
		return nil, fmt.Errorf("no generated type for %s", model)
	}
	target := create()
	return target, json.Unmarshal(value, target)
}

// with returns a sample with fields set (a nil value removes the field).
func with(sample map[string]json.RawMessage, fields map[string]any) []byte {
	copied := map[string]json.RawMessage{}
	for key, value := range sample {
		copied[key] = value
	}
	for key, value := range fields {
		if value == nil {
			delete(copied, key)
			continue
		}
		encoded, _ := json.Marshal(value)
		copied[key] = encoded
	}
	encoded, _ := json.Marshal(copied)
	return encoded
}

// null stands for a JSON null in `with` (nil removes the field).
var null = json.RawMessage("null")

// ModelChecks runs required, int64, nullable, enums and examples.
func ModelChecks(spec Spec, m Models) {
	Run("required", func() (bool, string) {
		var accepted []string
		for model, fields := range spec.Required {
			if _, err := m.parse(model, with(spec.Samples[model], nil)); err != nil {
				return false, fmt.Sprintf("the documented %s is refused: %v", model, err)
			}
			for _, field := range fields {
				if _, err := m.parse(model, with(spec.Samples[model], map[string]any{field: nil})); err == nil {
					accepted = append(accepted, model+" without "+field)
				}
			}
		}
		return len(accepted) == 0, "accepted: " + strings.Join(accepted, ", ")
	})
	Run("int64", func() (bool, string) {
		job, err := m.parse("Job", with(spec.Samples["Job"], map[string]any{"id": json.Number("9007199254740993")}))
		if err != nil {
			return false, err.Error()
		}
		return m.JobID(job) == BigID, fmt.Sprintf("Job.id %d parsed as %d", BigID, m.JobID(job))
	})
	Run("nullable", func() (bool, string) { return nullable(spec, m) })
	Run("enums", func() (bool, string) {
		var wrong []string
		for name, values := range spec.Enums {
			want := make([]string, len(values))
			for i, value := range values {
				want[i] = fmt.Sprint(value)
			}
			got := slices.Clone(m.Enums[name])
			sort.Strings(want)
			sort.Strings(got)
			if !slices.Equal(got, want) {
				wrong = append(wrong, fmt.Sprintf("%s: %v instead of %v", name, got, want))
			}
		}
		return len(wrong) == 0, strings.Join(wrong, "; ")
	})
	Run("examples", func() (bool, string) { return examples(spec, m) })
}

// nullable sets each field the document makes nullable (the driver input's list) to null, one at a time so that a
// failure names it: the model must accept it and keep it null (written back as null or left out), not read it as
// its zero value ("", 0, an empty record) as encoding/json does for a field whose type has no null. Where the models
// check types at run time, a non-null field (Job.name) must refuse null.
func nullable(spec Spec, m Models) (bool, string) {
	var problems, counts []string
	for _, model := range slices.Sorted(maps.Keys(spec.Nullable)) {
		counts = append(counts, fmt.Sprintf("%s: %d", model, len(spec.Nullable[model])))
		for _, field := range spec.Nullable[model] {
			if problem := keepsNull(m, model, spec.Samples[model], field); problem != "" {
				problems = append(problems, model+"."+field+": "+problem)
			}
		}
	}
	if len(counts) == 0 {
		return false, "the driver input lists no nullable fields"
	}
	if m.RefusesNull {
		if _, err := m.parse("Job", with(spec.Samples["Job"], map[string]any{"name": null})); err == nil {
			problems = append(problems, "Job.name: null accepted")
		}
	}
	if len(problems) > 0 {
		return false, strings.Join(problems, "; ")
	}
	refused := "; null refused where non-null (Job.name)"
	if !m.RefusesNull {
		refused = "; Go's encoding/json does not refuse null in a non-null field"
	}
	return true, "null accepted and kept in each nullable field (" + strings.Join(counts, ", ") + ")" + refused
}

// keepsNull parses a record with one field null and writes it back; a problem, or "" when null was kept.
func keepsNull(m Models, model string, sample map[string]json.RawMessage, field string) string {
	parsed, err := m.parse(model, with(sample, map[string]any{field: null}))
	if err != nil {
		return fmt.Sprintf("null refused (%.200v)", err)
	}
	encoded, err := json.Marshal(parsed)
	if err != nil {
		return fmt.Sprintf("not written back (%.200v)", err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(encoded, &fields); err != nil {
		return fmt.Sprintf("written back as no object (%.200v)", err)
	}
	if value, found := fields[field]; found && string(value) != "null" {
		return fmt.Sprintf("null read as %.100s", value)
	}
	return ""
}

func examples(spec Spec, m Models) (bool, string) {
	var refused []string
	operations := map[string]bool{}
	for _, example := range spec.Examples {
		values := []json.RawMessage{example.Value}
		if example.Array {
			values = nil
			decoder := json.NewDecoder(bytes.NewReader(example.Value))
			decoder.UseNumber()
			if err := decoder.Decode(&values); err != nil {
				panic(err)
			}
		}
		var failure error
		for _, value := range values {
			if _, err := m.parse(example.Model, value); err != nil && failure == nil {
				failure = err
			}
		}
		if failure != nil {
			refused = append(refused, fmt.Sprintf("%s %s %s (%s): %.300v", example.OperationID, example.Status, example.Name, example.Model, failure))
		} else {
			operations[example.OperationID] = true
		}
	}
	detail := fmt.Sprintf("%d operations' examples parse; refused %d:\n%s", len(operations), len(refused), strings.Join(refused[:min(len(refused), 25)], "\n"))
	return len(refused) == 0 && len(operations) >= 30, detail
}
