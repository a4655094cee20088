package polyglot

import (
	"encoding/json"
	"fmt"
)

// Calls is what a driver does with its generated client against the fake, as maintainer-token.
type Calls struct {
	// ListJobs lists the jobs of Project; it returns how many.
	ListJobs func() (int, error)
	// Create opens a merge request and returns its iid.
	Create func(source, target, title string) (int64, error)
	// Page returns the iids of one page (2 a page) of the project's merge requests.
	Page func(number int64) ([]int64, error)
	// Merge merges a merge request and returns its state.
	Merge func(iid int64) (string, error)
	// Conflict opens a merge request that exists already: the 409 must come as the client's error type, which it
	// describes (ok: it is that type and says 409).
	Conflict func(source, target, title string) (bool, string)
}

// CallSequence runs the calls: list jobs, create, page, merge, conflict.
func CallSequence(calls Calls) {
	Run("jobs-path-encoded", func() (bool, string) {
		count, err := calls.ListJobs()
		return err == nil && count > 0, fmt.Sprintf("%d jobs, error %v", count, err)
	})
	var created int64
	Run("create-merge-request", func() (bool, string) {
		iid, err := calls.Create("feature/polyglot", "main", "Polyglot check")
		created = iid
		return err == nil && iid > 0, fmt.Sprintf("iid %d, error %v", iid, err)
	})
	Run("page-merge-requests", func() (bool, string) {
		if created == 0 {
			return false, "no merge request was created"
		}
		var seen []int64
		for number := int64(1); number < 50; number++ {
			iids, err := calls.Page(number)
			if err != nil {
				return false, fmt.Sprintf("page %d: %v", number, err)
			}
			if len(iids) == 0 {
				break
			}
			seen = append(seen, iids...)
		}
		found := false
		for _, iid := range seen {
			found = found || iid == created
		}
		return found && len(seen) > 2, fmt.Sprintf("iids seen over the pages: %v", seen)
	})
	Run("merge", func() (bool, string) {
		if created == 0 {
			return false, "no merge request was created"
		}
		state, err := calls.Merge(created)
		return err == nil && state == "merged", fmt.Sprintf("state after merge: %q, error %v", state, err)
	})
	Run("conflict-error", func() (bool, string) { return calls.Conflict("feature/login", "main", "Again") })
}

// Field reads a field of a decoded record through its JSON form, whatever type the generator gave the record (a
// struct, an anyOf wrapper, a pointer).
func Field[T any](record any, name string) T {
	var fields map[string]json.RawMessage
	var value T
	encoded, err := json.Marshal(record)
	if err == nil {
		err = json.Unmarshal(encoded, &fields)
	}
	if err == nil {
		err = json.Unmarshal(fields[name], &value)
	}
	if err != nil {
		panic(fmt.Sprintf("no %s in %s: %v", name, encoded, err))
	}
	return value
}
