#!/usr/bin/env bash
# The commit a stage runs, kept in an SSM parameter of its account (.github/workflows/pipeline.yml; PetStore-ci grants it).
#   bash scripts/deployed-commit.sh <stage>          prints it; nothing when the stage records none yet
#   bash scripts/deployed-commit.sh <stage> <sha>    records it, after a deploy
# Any error but "no such parameter" stops the run: an unreadable record must not pass for a first deploy.
set -euo pipefail
stage=$1
name="/petstore/$stage/deployed-commit"
if [[ $# -ge 2 ]]; then
  aws ssm put-parameter --name "$name" --type String --overwrite --value "$2" >/dev/null
  echo "recorded: $stage runs $2" >&2
  exit 0
fi
if value=$(aws ssm get-parameter --name "$name" --query Parameter.Value --output text 2>/tmp/deployed-commit.err); then
  echo "$value"
elif grep -q ParameterNotFound /tmp/deployed-commit.err; then
  echo ""
else
  cat /tmp/deployed-commit.err >&2
  exit 1
fi
