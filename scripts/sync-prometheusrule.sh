#!/usr/bin/env bash
# Writes deploy/k8s/prometheusrule.yaml from deploy/prometheus/alerts.yml:
# the same rule groups, wrapped in the Prometheus Operator's PrometheusRule
# (the compose stack's Prometheus loads alerts.yml itself; the Operator
# only loads rules from PrometheusRule objects). alerts.yml is the one
# source: edit it, run this, commit both. tests/deploy_config.rs fails
# while the two files' rules differ.
#
# usage: scripts/sync-prometheusrule.sh
set -euo pipefail
cd "$(dirname "$0")/.."
src=deploy/prometheus/alerts.yml
out=deploy/k8s/prometheusrule.yaml
grep -q '^groups:' "$src" || { echo "sync-prometheusrule: no top-level groups: in $src" >&2; exit 1; }
{
  cat <<'HEADER'
# GENERATED from deploy/prometheus/alerts.yml by scripts/sync-prometheusrule.sh:
# edit alerts.yml and run the script (tests/deploy_config.rs checks that the
# rules here are alerts.yml's). For the Prometheus Operator, which loads
# rules only from PrometheusRule objects its Prometheus selects: with
# kube-prometheus-stack that is usually the label `release: <its release
# name>` (its ruleSelector); add it in the script's header, or with a
# kustomize patch, since running the script again rewrites this file.
apiVersion: monitoring.coreos.com/v1
kind: PrometheusRule
metadata:
  name: linesift
  namespace: linesift
  labels:
    app.kubernetes.io/name: linesift
spec:
HEADER
  # alerts.yml from its `groups:` line on, indented under spec (blank
  # lines stay blank, so block scalars keep their text).
  sed -n '/^groups:/,$p' "$src" | sed 's/^\(.\)/  \1/'
} > "$out.tmp"
mv "$out.tmp" "$out"
echo "wrote $out"
