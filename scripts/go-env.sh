# Sourced by the scripts that build Go tools from the module proxy (ensure-pulumi, gen-sdk).
go_env() {
  export GOFLAGS=-mod=mod CGO_ENABLED=0 GOTOOLCHAIN=${GOTOOLCHAIN:-auto}
  # The checksum database is not always reachable through the module proxy; go.sum still pins
  # the hashes of what the proxy served for this one build.
  export GONOSUMDB=github.com/pulumi/* GONOSUMCHECK=1 GOSUMDB=${GOSUMDB:-off}
}

# A new module named $1 in the current directory, ready to depend on github.com/pulumi/pulumi/pkg/v3:
# pulumi's own go.mod replaces the clipboard module; replaces of dependencies are ignored, so the
# module repeats it.
pulumi_module() {
  go mod init "$1" >/dev/null 2>&1
  go mod edit -replace=github.com/atotto/clipboard=github.com/tgummerer/clipboard@v0.0.0-20241001131231-d02d263e614e
}

# Run as a program (`bash scripts/go-env.sh`), prints go_env's settings with the machine's Go caches
# as KEY=value lines, for tools that run `go` themselves (the Go program tests hand them to the
# CLI): builds share the module and build caches of this machine's other Go builds.
if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  go_env
  for key in GOFLAGS CGO_ENABLED GOTOOLCHAIN GONOSUMDB GONOSUMCHECK GOSUMDB; do echo "$key=${!key}"; done
  echo "GOMODCACHE=$(go env GOMODCACHE)"
  echo "GOCACHE=$(go env GOCACHE)"
fi
