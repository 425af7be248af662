"""Checking records: one deal's check result, the audit of recorded scores, and score sheets per session."""
