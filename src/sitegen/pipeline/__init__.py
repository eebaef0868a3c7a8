"""The build, stage by stage: load -> check -> calc -> plan -> render -> write."""
