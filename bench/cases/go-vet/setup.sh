#!/usr/bin/env bash
# A Go module that compiles but trips go vet: a Printf verb mismatch, an unreachable
# statement and a struct tag typo, in two packages.
set -euo pipefail
cd "$1"
mkdir -p store
cat > go.mod <<'GO'
module example.com/vetted

go 1.19
GO
cat > main.go <<'GO'
package main

import (
	"fmt"

	"example.com/vetted/store"
)

func main() {
	name := "widgets"
	fmt.Printf("%d items in %s\n", name, store.Count())
}
GO
cat > store/store.go <<'GO'
package store

import "fmt"

type Record struct {
	ID   int    `json:"id"`
	Name string `json:name`
}

func Count() int {
	return 3
	fmt.Println("never")
	return 0
}
GO
