#Requires -Version 7.4
<#
.SYNOPSIS
    Project a reviewed conversation selection into a private Graphify graph.

.DESCRIPTION
    Runs conversation_projection.py, which sits beside this script, with the
    Python interpreter you name, in isolated mode (-I). Nothing is installed.
    The adapter's one-line JSON result and its exit code pass through
    unchanged: 0 built/verified/checked, 2 invalid, 3 retry (Graphify absent
    or failed). A -PythonPath that is not an existing file gives the fixed
    code python_missing in the same JSON shape, exit 2.

.EXAMPLE
    ./Project-ConversationContext.ps1 -PythonPath $python -StateRoot $state -SelectionPath ./fixtures/conversation-selection.json

.EXAMPLE
    ./Project-ConversationContext.ps1 -PythonPath $python -StateRoot $state -Verify

.EXAMPLE
    ./Project-ConversationContext.ps1 -PythonPath $python -StateRoot $state -Migrate
#>
[CmdletBinding()]
param(
    [Parameter(Mandatory = $true)]
    [string] $PythonPath,

    [Parameter(Mandatory = $true)]
    [string] $StateRoot,

    [Parameter()]
    [string] $SelectionPath,

    [Parameter()]
    [switch] $Verify,

    [Parameter()]
    [switch] $DryRun,

    [Parameter()]
    [switch] $Migrate
)

Set-StrictMode -Version Latest
$ErrorActionPreference = 'Stop'

# Same shape as the adapter's own result line; keys sorted, no input echoed.
# tests/test_wrapper_version.py holds it to the adapter's version and shape.
$pythonMissing = '{"adapterVersion":"0.2.0","code":"python_missing","contextGraph":"unknown-owner","embeddingIdentity":"none","exitCode":2,"graphifyVersion":null,"projectionSchemaVersion":1,"result":"invalid"}'

if ([string]::IsNullOrEmpty($PythonPath) -or -not (Test-Path -LiteralPath $PythonPath -PathType Leaf)) {
    [Console]::Out.WriteLine($pythonMissing)
    exit 2
}

$module = Join-Path -Path $PSScriptRoot -ChildPath 'conversation_projection.py'
$arguments = @('-I', $module, '--state-root', $StateRoot)
if ($PSBoundParameters.ContainsKey('SelectionPath')) {
    $arguments += @('--selection', $SelectionPath)
}
if ($Verify) {
    $arguments += '--verify'
}
if ($DryRun) {
    $arguments += '--dry-run'
}
if ($Migrate) {
    $arguments += '--migrate'
}

& $PythonPath @arguments
exit $LASTEXITCODE
