package app

import "testing"

func TestCallsRefuseDuplicatesAndCancel(t *testing.T) {
	var c calls
	ctx, done, ok := c.start("a")
	if !ok {
		t.Fatal("first start refused")
	}
	if _, _, ok := c.start("a"); ok {
		t.Error("a second call with the same id was accepted")
	}
	if !c.cancel("a") || ctx.Err() == nil {
		t.Error("cancel did not reach the call's context")
	}
	done()
	if c.cancel("a") {
		t.Error("a finished call still cancellable")
	}
	if _, done, ok := c.start("a"); !ok {
		t.Error("the id is not free again after the call ended")
	} else {
		done()
	}
}
