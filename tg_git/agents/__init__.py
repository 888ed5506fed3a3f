"""Agent integration: each agent's settings file (install/uninstall), the agent hook handler
(stdin JSON in, the agent's documented output out) and the token-guard skill texts."""
