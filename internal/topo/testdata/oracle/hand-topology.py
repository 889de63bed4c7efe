import json, itertools
def node(name, zone=None, extra=None, taints=None):
    l = {"kubernetes.io/hostname": name}
    if zone: l["topology.kubernetes.io/zone"] = zone
    if extra: l.update(extra)
    n = {"metadata": {"name": name, "labels": l}, "spec": {}, "status": {"allocatable": {"cpu": "16", "memory": "32Gi", "pods": "110"}}}
    if taints: n["spec"]["taints"] = taints
    return n
def pod(name, node=None, ns="default", labels=None, spec=None, owner=None, deleting=False):
    p = {"metadata": {"name": name, "namespace": ns, "labels": labels or {}},
         "spec": {"containers": [{"name": "c", "image": "nginx", "resources": {"requests": {"cpu": "100m", "memory": "100Mi"}}}]}}
    if node: p["spec"]["nodeName"] = node
    if spec: p["spec"].update(spec)
    if owner: p["metadata"]["ownerReferences"] = [dict(owner, uid="u-"+owner["name"], controller=True)]
    if deleting: p["metadata"]["deletionTimestamp"] = "2024-01-01T00:00:00Z"; p["metadata"]["finalizers"]=["x/y"]
    return p
def ns(name, labels=None):
    return {"metadata": {"name": name, "labels": labels or {}}}
def tsc(maxSkew, key, when, sel, **kw):
    c = {"maxSkew": maxSkew, "topologyKey": key, "whenUnsatisfiable": when, "labelSelector": sel}
    c.update(kw); return c
Z="topology.kubernetes.io/zone"; H="kubernetes.io/hostname"
nodes = [node("n1","z1"), node("n2","z1",{"disk":"ssd"}), node("n3","z2",{"disk":"ssd"}),
         node("n4","z2",taints=[{"key":"ded","value":"x","effect":"NoSchedule"}]),
         node("n5","z3"), node("n6", None, {"disk":"ssd"}), node("n7","z3",taints=[{"key":"soft","effect":"PreferNoSchedule"}])]
apps = ["web","db","cache"]
pods = []
i=0
for n in nodes:
    for a in apps:
        for k in range((hash(n["metadata"]["name"]+a) % 3)):
            i+=1
            owner = None
            if a=="web": owner={"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-rs"}
            if a=="db": owner={"apiVersion":"apps/v1","kind":"StatefulSet","name":"db"}
            if a=="cache": owner={"apiVersion":"v1","kind":"ReplicationController","name":"cache-rc"}
            spec=None
            if i%4==0:
                spec={"affinity":{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"topologyKey":H,"labelSelector":{"matchLabels":{"app":a}}}]}}}
            if i%5==0:
                spec={"affinity":{"podAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":7,"podAffinityTerm":{"topologyKey":Z,"labelSelector":{"matchLabels":{"app":"web"}},"namespaceSelector":{}}}]}}}
            if i%7==0:
                spec={"affinity":{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"topologyKey":Z,"labelSelector":{"matchLabels":{"tier":"front"}},"namespaceSelector":{"matchExpressions":[{"key":"team","operator":"DoesNotExist"}]}}]}}}
            pods.append(pod(f"p{i}", n["metadata"]["name"], ns="default" if i%3 else "team-a", labels={"app":a, "tier": "front" if i%2 else "back"}, owner=owner, spec=spec, deleting=(i%11==0)))
namespaces=[ns("default"), ns("team-a", {"team":"a"}), ns("team-b", {"team":"b"})]
services=[{"metadata":{"name":"web-svc","namespace":"default"},"spec":{"selector":{"app":"web"}}},
          {"metadata":{"name":"front","namespace":"default"},"spec":{"selector":{"tier":"front"}}},
          {"metadata":{"name":"empty","namespace":"default"},"spec":{"selector":{}}}]
replicaSets=[{"metadata":{"name":"web-rs","namespace":"default"},"spec":{"selector":{"matchLabels":{"app":"web"},"matchExpressions":[{"key":"tier","operator":"Exists"}]},"template":{"metadata":{"labels":{"app":"web","tier":"front"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}]
statefulSets=[{"metadata":{"name":"db","namespace":"default"},"spec":{"serviceName":"db","selector":{"matchLabels":{"app":"db"}},"template":{"metadata":{"labels":{"app":"db"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}]
rcs=[{"metadata":{"name":"cache-rc","namespace":"default"},"spec":{"selector":{"app":"cache"},"template":{"metadata":{"labels":{"app":"cache"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}]
pending=[]
def add(name, **kw): pending.append(pod(name, **kw))
add("def-web", labels={"app":"web","tier":"front"}, owner={"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-rs"})
add("def-db", labels={"app":"db"}, owner={"apiVersion":"apps/v1","kind":"StatefulSet","name":"db"})
add("def-cache", labels={"app":"cache","tier":"back"}, owner={"apiVersion":"v1","kind":"ReplicationController","name":"cache-rc"})
add("def-front-only", labels={"tier":"front"})
add("def-none", labels={"x":"y"})
add("def-teama", ns="team-a", labels={"app":"web"})
add("sp-honor-taints", labels={"app":"web"}, spec={"topologySpreadConstraints":[tsc(1,Z,"DoNotSchedule",{"matchLabels":{"app":"web"}},nodeTaintsPolicy="Honor")]})
add("sp-ignore-aff", labels={"app":"web"}, spec={"nodeSelector":{"disk":"ssd"},"topologySpreadConstraints":[tsc(1,Z,"DoNotSchedule",{"matchLabels":{"app":"web"}},nodeAffinityPolicy="Ignore")]})
add("sp-honor-aff", labels={"app":"web"}, spec={"nodeSelector":{"disk":"ssd"},"topologySpreadConstraints":[tsc(1,Z,"DoNotSchedule",{"matchLabels":{"app":"web"}})]})
add("sp-mindomains", labels={"app":"db"}, spec={"topologySpreadConstraints":[tsc(1,Z,"DoNotSchedule",{"matchLabels":{"app":"db"}},minDomains=5)]})
add("sp-mlk", labels={"app":"web","tier":"back"}, spec={"topologySpreadConstraints":[tsc(1,H,"DoNotSchedule",{"matchLabels":{"app":"web"}},matchLabelKeys=["tier"])]})
add("sp-soft-two", labels={"app":"cache"}, spec={"topologySpreadConstraints":[tsc(2,Z,"ScheduleAnyway",{"matchLabels":{"app":"cache"}}),tsc(1,H,"ScheduleAnyway",{"matchLabels":{"app":"cache"}})]})
add("sp-soft-honor", labels={"app":"cache"}, spec={"tolerations":[{"key":"ded","operator":"Exists"}],"topologySpreadConstraints":[tsc(1,Z,"ScheduleAnyway",{"matchLabels":{"app":"cache"}},nodeTaintsPolicy="Honor")]})
add("sp-empty-sel", labels={"app":"cache"}, spec={"topologySpreadConstraints":[tsc(1,Z,"DoNotSchedule",{})]})
add("sp-mixed", labels={"app":"web"}, spec={"topologySpreadConstraints":[tsc(1,H,"DoNotSchedule",{"matchLabels":{"app":"web"}}),tsc(1,Z,"ScheduleAnyway",{"matchLabels":{"app":"web"}})]})
add("ipa-nssel-dne", labels={"app":"z"}, spec={"affinity":{"podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"topologyKey":Z,"labelSelector":{"matchLabels":{"app":"db"}},"namespaceSelector":{"matchExpressions":[{"key":"team","operator":"DoesNotExist"}]}}]}}})
add("ipa-nssel-team", labels={"app":"z"}, spec={"affinity":{"podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"topologyKey":Z,"labelSelector":{"matchLabels":{"app":"db"}},"namespaceSelector":{"matchLabels":{"team":"a"}}}]}}})
add("ipa-pref-nssel", labels={"app":"z"}, spec={"affinity":{"podAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":30,"podAffinityTerm":{"topologyKey":H,"labelSelector":{"matchLabels":{"app":"cache"}},"namespaceSelector":{"matchExpressions":[{"key":"team","operator":"NotIn","values":["b"]}]}}}]},"podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":20,"podAffinityTerm":{"topologyKey":Z,"labelSelector":{"matchLabels":{"app":"web"}},"namespaces":["team-a","nowhere"]}}]}}})
add("ipa-front", labels={"tier":"front","app":"q"})
add("ipa-front-teamb", ns="team-b", labels={"tier":"front","app":"q"})
add("ipa-front-unknown-ns", ns="ghost", labels={"tier":"front","app":"web"})
add("ipa-first-pod", labels={"app":"solo"}, spec={"affinity":{"podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"topologyKey":Z,"labelSelector":{"matchLabels":{"app":"solo"}}}]}}})
add("ipa-anti-self", labels={"app":"web"}, spec={"affinity":{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"topologyKey":Z,"labelSelector":{"matchLabels":{"app":"web"}}}]}}})
add("ipa-two-terms", labels={"app":"x"}, spec={"affinity":{"podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"topologyKey":Z,"labelSelector":{"matchLabels":{"app":"web"}}},{"topologyKey":H,"labelSelector":{"matchLabels":{"tier":"front"}}}]}}})
json.dump({"nodes":nodes,"pods":pods,"namespaces":namespaces,"pending":pending,"services":services,"replicaSets":replicaSets,"statefulSets":statefulSets,"replicationControllers":rcs}, open("hand1.json","w"), indent=1)
