{{/* Names and labels shared by the templates. */}}
{{- define "loupe.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "loupe.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "loupe.labels" -}}
{{ include "loupe.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end -}}

{{/* The Secret the pods read: the chart's own, or secret.existingSecret. */}}
{{- define "loupe.secretName" -}}
{{- default (include "loupe.fullname" .) .Values.secret.existingSecret -}}
{{- end -}}

{{- define "loupe.scaleOut" -}}
{{- if eq .Values.mode "scale-out" -}}true{{- end -}}
{{- end -}}

{{/*
terminationGracePeriodSeconds: the pause before SIGTERM, then the longer of the two drains
(they run at once), then a margin, so the kubelet's SIGKILL never cuts a drain short.
*/}}
{{- define "loupe.terminationGracePeriodSeconds" -}}
{{- $drainMs := max (int .Values.drain.httpTimeoutMs) (int .Values.drain.jobsTimeoutMs) -}}
{{- $drainSeconds := div (add $drainMs 999) 1000 -}}
{{- add (int .Values.drain.preStopSeconds) $drainSeconds (int .Values.drain.marginSeconds) -}}
{{- end -}}

{{/* The refusals of an incomplete configuration, before anything is rendered. */}}
{{- define "loupe.validate" -}}
{{- if not (has .Values.mode (list "embedded" "scale-out")) -}}
{{- fail (printf "mode must be embedded or scale-out, got %q" .Values.mode) -}}
{{- end -}}
{{- if include "loupe.scaleOut" . -}}
{{- if not .Values.s3.bucket -}}
{{- fail "scale-out mode needs s3.bucket (the pods share one S3-compatible bucket)" -}}
{{- end -}}
{{- if not .Values.secret.existingSecret -}}
{{- if not .Values.secret.databaseUrl -}}
{{- fail "scale-out mode needs secret.databaseUrl (postgresql://...) or secret.existingSecret" -}}
{{- end -}}
{{- if not (hasPrefix "postgresql://" .Values.secret.databaseUrl) -}}
{{- fail "scale-out mode needs a PostgreSQL secret.databaseUrl (postgresql://...): SQLite is one process's file" -}}
{{- end -}}
{{- if not .Values.secret.signingSecret -}}
{{- fail "scale-out mode needs secret.signingSecret, the same on every pod (openssl rand -hex 32)" -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The chart's own Secret's entries (none with secret.existingSecret), as YAML. */}}
{{- define "loupe.secretData" -}}
{{- $data := dict -}}
{{- with .Values.secret.signingSecret }}{{ $_ := set $data "signing-secret" . }}{{ end -}}
{{- with .Values.secret.databaseUrl }}{{ $_ := set $data "database-url" . }}{{ end -}}
{{- with .Values.secret.metricsToken }}{{ $_ := set $data "metrics-token" . }}{{ end -}}
{{- if include "loupe.scaleOut" . -}}
{{- with .Values.s3.accessKeyId }}{{ $_ := set $data "s3-access-key-id" . }}{{ end -}}
{{- with .Values.s3.secretAccessKey }}{{ $_ := set $data "s3-secret-access-key" . }}{{ end -}}
{{- end -}}
{{- if $data }}{{ toYaml $data }}{{ end -}}
{{- end -}}
